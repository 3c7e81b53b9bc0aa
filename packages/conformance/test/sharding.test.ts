import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JSON_REPORT_FILE } from '../src/reporters/jsonReport.js';
import { rules } from '../src/ruleCatalogue/index.js';
import { runConformance } from '../src/run/engine.js';
import type { RunOutcome } from '../src/run/outcome.js';
import { declaredChecks } from '../src/traceability/declaredChecks.js';

async function report(shard: string): Promise<RunOutcome> {
  const outDir = mkdtempSync(join(tmpdir(), `conformance-shard-${shard.replace('/', '-of-')}-`));
  await runConformance({ shard, depth: 1, seed: 17, reporters: ['json'], outDir, print: () => undefined });
  return JSON.parse(readFileSync(join(outDir, JSON_REPORT_FILE), 'utf8')) as RunOutcome;
}

describe('--shard i/n', () => {
  // What a full run checks is the catalogue and the declared checks: cli.e2e.test.ts asserts that
  // a full run reports exactly those, so the shards are compared with them instead of a third run.
  it('splits a run so that shards 1/2 and 2/2 together check every rule of a full run, each in one shard', async () => {
    const first = await report('1/2');
    const second = await report('2/2');
    for (const outcome of [first, second]) {
      expect(outcome.runErrors).toEqual([]);
      expect(outcome.rules.length).toBeGreaterThan(0);
    }
    expect(first.info.shard).toBe('1/2');
    expect(second.info.shard).toBe('2/2');

    const ruleIds = [...first.rules, ...second.rules].map((rule) => rule.id);
    expect(ruleIds.filter((id, index) => ruleIds.indexOf(id) !== index)).toEqual([]);
    expect([...ruleIds].sort()).toEqual(rules.map((rule) => rule.id).sort());

    // Every check ran in exactly one shard, and passed against the correct sandbox.
    const titles = [...first.tests, ...second.tests].map((test) => test.title);
    expect([...titles].sort()).toEqual(
      declaredChecks()
        .map((check) => check.title)
        .sort(),
    );
    expect([...first.tests, ...second.tests].filter((test) => test.state !== 'passed')).toEqual([]);
  });
});
