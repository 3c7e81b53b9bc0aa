import type { OpenApiDocument } from '@cloud-api/spec';
import type { MarkdownRenderer } from 'vitepress';
import {
  ASSUMPTIONS_MARKER,
  NOT_SHOWN_MARKER,
  renderAssumptionsTable,
  renderNotShownTable,
} from './gapTables.js';

/**
 * markdown-it plugin: replaces the markers of the unspecified guide with the tables of the
 * bundled spec's `x-not-shown` and `x-assumptions`, so the page can never fall behind the spec.
 */
export function gapTablesPlugin(document: OpenApiDocument): (markdown: MarkdownRenderer) => void {
  const tables: Readonly<Record<string, string>> = {
    [NOT_SHOWN_MARKER]: renderNotShownTable(document['x-not-shown']),
    [ASSUMPTIONS_MARKER]: renderAssumptionsTable(document['x-assumptions']),
  };
  return (markdown) => {
    markdown.core.ruler.push('gap_tables', (state) => {
      for (const token of state.tokens) {
        const table = token.type === 'html_block' ? tables[token.content.trim()] : undefined;
        if (table !== undefined) token.content = `${table}\n`;
      }
    });
  };
}
