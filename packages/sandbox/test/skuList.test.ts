import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SKUS } from '../src/index.js';
import { type Harness, paths, startHarness } from './sandboxHarness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('SKUs', () => {
  it('allows every listed SKU, including the plan of the client quickstart, in the primary workspace', async () => {
    expect(SANDBOX_SKUS).toContain('plan-std-2c-4g');
    for (const sku of SANDBOX_SKUS) {
      const answer = await h.call('POST', paths.eligibility, { json: { sku_code: sku } });
      expect([sku, answer.json]).toEqual([sku, { allowed: true }]);
    }
  });

  it('the README lists exactly the SKUs of the code', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## SKUs'), readme.indexOf('## Faults'));
    const listed = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
    expect(listed).toEqual([...SANDBOX_SKUS]);
  });
});
