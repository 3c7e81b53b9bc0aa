import { loadOpenApiDocument } from '@cloud-api/spec';
import { describe, expect, it } from 'vitest';
import {
  ASSUMPTIONS_MARKER,
  insertGapTables,
  NOT_SHOWN_MARKER,
  renderNotShownTable,
} from '../src/gapTables.js';

describe('gap tables of the unspecified guide', () => {
  const document = loadOpenApiDocument();

  it('renders one row per x-not-shown and x-assumptions entry of the bundled spec', () => {
    const html = insertGapTables(`<p>a</p>${NOT_SHOWN_MARKER}<p>b</p>${ASSUMPTIONS_MARKER}`, document);
    expect(html.match(/<code id="NS-/g)).toHaveLength(document['x-not-shown'].length);
    expect(html.match(/<code id="A-/g)).toHaveLength(document['x-assumptions'].length);
    expect(html).not.toContain('<!-- gaps:');
  });

  it('quotes the document and escapes its markup', () => {
    const html = renderNotShownTable([
      { id: 'NS-X', section: 'S <1>', quote: 'Path of `operation_id` <b>: not shown.', scope: 'document' },
    ]);
    expect(html).toContain('<q>Path of <code>operation_id</code> &lt;b&gt;: not shown.</q>');
    expect(html).toContain('S &lt;1&gt;');
    expect(html).toContain('whole API');
  });

  it('fails the build when the guide lost a marker', () => {
    expect(() => insertGapTables(`<p>${NOT_SHOWN_MARKER}</p>`, document)).toThrow(/gaps:assumptions/);
  });
});
