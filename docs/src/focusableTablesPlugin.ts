import type { MarkdownRenderer } from 'vitepress';

/**
 * markdown-it plugin: makes every table focusable. The theme lets wide tables scroll sideways
 * (so the page itself never does on a phone), and a scrolling region must be reachable with the
 * keyboard (axe: scrollable-region-focusable).
 */
export function focusableTablesPlugin(markdown: MarkdownRenderer): void {
  markdown.core.ruler.push('focusable_tables', (state) => {
    for (const token of state.tokens) if (token.type === 'table_open') token.attrSet('tabindex', '0');
  });
}
