import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOpenApiDocument } from '@cloud-api/spec';
import { createMarkdownRenderer } from 'vitepress';
import { describe, expect, it } from 'vitest';
import { ASSUMPTIONS_MARKER, NOT_SHOWN_MARKER, renderNotShownTable } from '../src/gapTables.js';
import { gapTablesPlugin } from '../src/gapTablesPlugin.js';

const docsDir = fileURLToPath(new URL('..', import.meta.url));

describe('gap tables of the unspecified guide', () => {
  const document = loadOpenApiDocument();

  it('the guide holds both markers, and the plugin replaces them with one row per entry of the bundled spec', async () => {
    const source = readFileSync(join(docsDir, 'guides', 'unspecified.md'), 'utf8');
    expect(source).toContain(NOT_SHOWN_MARKER);
    expect(source).toContain(ASSUMPTIONS_MARKER);
    const markdown = await createMarkdownRenderer(docsDir);
    markdown.use(gapTablesPlugin(document));
    const html = markdown.render(source);
    expect(html.match(/<code id="NS-/g)).toHaveLength(document['x-not-shown'].length);
    expect(html.match(/<code id="A-/g)).toHaveLength(document['x-assumptions'].length);
    expect(html).toContain('<code id="A-CREATE-VM-BILLABLE">');
    expect(html).not.toContain('<!-- gaps:');
  });

  it('quotes the document and escapes its markup, Vue mustaches included', () => {
    const html = renderNotShownTable([
      {
        id: 'NS-X',
        section: 'S <1>',
        quote: 'Path of `operation_id` <b>{{ x }}: not shown.',
        scope: 'document',
      },
    ]);
    expect(html).toContain('<q>Path of <code>operation_id</code> &lt;b&gt;{&#8203;{ x }}: not shown.</q>');
    expect(html).toContain('S &lt;1&gt;');
    expect(html).toContain('whole API');
  });
});
