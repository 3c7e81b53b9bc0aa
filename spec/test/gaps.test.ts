// The document's "not shown" gaps are all recorded, quoted, and tied to the spec objects they
// concern; assumptions are recorded with how conformance avoids depending on them.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '../src/index.js';
import { apiDocument } from './apiDocument.js';

const doc = loadOpenApiDocument();
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Every id used in an `x-not-shown` / `x-assumptions` list anywhere in the spec, except the registers themselves. */
function usedIds(key: 'x-not-shown' | 'x-assumptions'): Set<string> {
  const used = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
    } else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === key && Array.isArray(v) && v.every((x) => typeof x === 'string')) {
          for (const id of v) used.add(id);
        } else walk(v);
      }
    }
  };
  const { 'x-not-shown': _gaps, 'x-assumptions': _assumptions, ...rest } = doc;
  walk(rest);
  return used;
}

describe('not shown', () => {
  const gaps = doc['x-not-shown'];

  it('every sentence of the document that says "not shown" is quoted in the register', () => {
    const sentences = apiDocument
      .split('\n')
      .map((line) => line.replace(/^\s*(\d+\.|-)\s*/, '').trim())
      .filter((line) => /: not shown\.$/.test(line));
    expect(sentences.length).toBeGreaterThanOrEqual(15);
    for (const sentence of sentences) {
      expect(
        gaps.some((g) => squash(g.quote) === squash(sentence)),
        `not quoted: ${sentence}`,
      ).toBe(true);
    }
  });

  it('every quote (but implied gaps) is verbatim from the document', () => {
    const flat = squash(apiDocument);
    for (const gap of gaps.filter((g) => !g.implied))
      expect(flat.includes(squash(gap.quote)), gap.id).toBe(true);
  });

  it('ids are unique, every id used in the spec is registered, and every register entry is used or document-wide', () => {
    const ids = gaps.map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    const used = usedIds('x-not-shown');
    for (const id of used) expect(ids, `unregistered ${id}`).toContain(id);
    for (const gap of gaps)
      expect(used.has(gap.id) || gap.scope === 'document', `unused ${gap.id}`).toBe(true);
  });
});

describe('assumptions', () => {
  const assumptions = doc['x-assumptions'];

  it('each says what was chosen, why, and how conformance avoids depending on it', () => {
    for (const a of assumptions) {
      for (const field of ['subject', 'choice', 'reason', 'conformance'] as const)
        expect(a[field], `${a.id}.${field}`).toBeTruthy();
    }
  });

  it('every id used in the spec is registered', () => {
    const ids = assumptions.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of usedIds('x-assumptions')) expect(ids, `unregistered ${id}`).toContain(id);
  });
});

const sharedDocument = fileURLToPath(
  new URL('../../../shared/seed/000_021db126cf7f2b3b.txt', import.meta.url),
);

describe('source document', () => {
  // The organisation's shared folder sits beside its own checkout (and CI's); a user's clone has
  // none, and a test may read nothing outside the repository there: skipped, saying why.
  it.skipIf(!existsSync(sharedDocument))(
    'the copy in spec/source is the shared API document, unchanged (skipped where ../shared is absent: a clone outside this organisation)',
    () => {
      expect(apiDocument).toBe(readFileSync(sharedDocument, 'utf8'));
    },
  );
});
