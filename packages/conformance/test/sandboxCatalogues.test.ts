import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { faultCatalogue, variantCatalogue } from '@cloud-api/sandbox';
import { apiDocumentPath } from '@cloud-api/spec';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { rules } from '../src/ruleCatalogue/index.js';

/** The gap and assumption ids of the spec (`spec/gaps/*.yaml`), which variants name. */
function gapIds(): Set<string> {
  const gapsDir = join(dirname(apiDocumentPath), '..', 'gaps');
  const ids = ['not-shown.yaml', 'assumptions.yaml'].flatMap((file) =>
    (parseYaml(readFileSync(join(gapsDir, file), 'utf8')) as { id: string }[]).map((entry) => entry.id),
  );
  return new Set(ids);
}

describe('the sandbox mutation catalogues against the rule catalogue', () => {
  const ruleIds = new Set(rules.map((rule) => rule.id));

  it('has every sandbox fault name a rule that exists in the conformance catalogue', () => {
    expect(faultCatalogue.length).toBeGreaterThan(0);
    expect(
      faultCatalogue.filter((fault) => !ruleIds.has(fault.rule)).map((f) => `${f.id} → ${f.rule}`),
    ).toEqual([]);
  });

  it('gives every fault and variant an id no other fault or variant has', () => {
    const ids = [...faultCatalogue, ...variantCatalogue].map((entry) => entry.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('has every variant name a "not shown" gap or an assumption of the spec', () => {
    const gaps = gapIds();
    expect(variantCatalogue.length).toBeGreaterThan(0);
    expect(
      variantCatalogue.filter((variant) => !gaps.has(variant.gap)).map((v) => `${v.id} → ${v.gap}`),
    ).toEqual([]);
  });
});
