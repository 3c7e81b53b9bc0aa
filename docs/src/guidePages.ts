import MarkdownIt from 'markdown-it';

// Raw HTML is allowed only for the build's own markers (gap tables); guides are ours, not user input.
const markdown = new MarkdownIt({ html: true, linkify: false, typographer: false });

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

// Headings get ids so guides can link to sections (`guide.html#scopes`).
markdown.core.ruler.push('heading_ids', (state) => {
  const tokens = state.tokens;
  tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const inline = tokens[index + 1];
    if (inline?.type === 'inline') token.attrSet('id', slugify(inline.content));
  });
});

// Links between guides are written to the markdown sources (`authentication.md`) so they also
// work on GitHub; the site serves them as `.html`.
const defaultLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const token = tokens[index];
  const href = token?.attrGet('href');
  if (token && typeof href === 'string' && !/^[a-z]+:/i.test(href)) {
    token.attrSet('href', href.replace(/\.md(#|$)/, '.html$1'));
  }
  return defaultLinkOpen(tokens, index, options, env, self);
};

export interface RenderedGuide {
  readonly title: string;
  readonly html: string;
}

/** Renders a guide; its title is its first `# ` heading. */
export function renderGuide(source: string, fileName: string): RenderedGuide {
  const titleLine = source.split('\n').find((line) => line.startsWith('# '));
  if (titleLine === undefined) throw new Error(`guide ${fileName} has no "# Title" heading`);
  return { title: titleLine.slice(2).trim(), html: markdown.render(source) };
}

/** Renders a markdown file that is not one of ours (the generated rule matrix) with its HTML escaped. */
export function renderGeneratedMarkdown(source: string): string {
  return new MarkdownIt({ html: false }).render(source);
}
