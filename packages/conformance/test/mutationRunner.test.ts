import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { faultCatalogue } from '@cloud-api/sandbox';
import { describe, expect, it } from 'vitest';
import { runMutants } from '../src/mutants/mutationRun.js';
import { judgesTheClient, mechanismGaps, renderRuleKills, ruleKills } from '../src/mutants/ruleKills.js';
import { type RuleEntry, rules } from '../src/ruleCatalogue/index.js';
import { cliPath } from './runCli.js';

const mutantsCli = fileURLToPath(new URL('../dist/mutantsCli.js', import.meta.url));

/**
 * A stand-in for the conformance CLI whose verdict the test decides: for each mutant id it
 * writes a JSON report in which the listed rules failed (none = the suite noticed nothing).
 */
function fakeSuiteCli(failedRulesById: Record<string, string[]>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-fake-suite-')), 'fake-cli.mjs');
  writeFileSync(
    file,
    `import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
const args = process.argv.slice(2);
const valueOf = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const id = valueOf('--sandbox-fault') ?? valueOf('--sandbox-variant');
const failed = (${JSON.stringify(failedRulesById)})[id] ?? [];
const rules = failed.map((rule) => ({ id: rule, level: 'MUST', title: rule, state: 'failed', tests: [], skipReasons: [] }));
writeFileSync(join(valueOf('--out'), 'conformance-report.json'), JSON.stringify({ kind: 'conformance-report', rules, runErrors: [] }));
process.exitCode = failed.length > 0 ? 1 : 0;
`,
  );
  return file;
}

const FAULT = 'accept-zero-workspace-id';
const VARIANT = 'workspace-id-422';

function runMutantsCli(
  failedRulesById: Record<string, string[]>,
  only: string | null = `${FAULT},${VARIANT}`,
) {
  const result = spawnSync(
    process.execPath,
    [
      mutantsCli,
      ...(only === null ? [] : ['--only', only]),
      '--suite-cli',
      fakeSuiteCli(failedRulesById),
      // The stand-in suite is a short process: a full run of every mutant stays a few seconds.
      '--concurrency',
      '8',
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mutation runner exit code', () => {
  it('exits 0 when every fault is caught and every variant passes', () => {
    const run = runMutantsCli({ [FAULT]: ['WS-2'] });
    expect(run.stdout).toMatch(/Faults caught: 1\/1 .* variants passing: 1\/1/);
    expect(run.code).toBe(0);
  });

  it("prints each fault's mechanism and, after the matrix, the kills per rule of the catalogue", () => {
    const run = runMutantsCli({ [FAULT]: ['WS-2', 'ERR-3'] });
    expect(run.stdout).toMatch(new RegExp(`${FAULT}\\s+missing-validation\\s+WS-2\\s+yes`));
    const summary = run.stdout.slice(run.stdout.indexOf('Kills per rule'));
    expect(summary).toMatch(/WS-2\s+MUST\s+1\s+1 \(missing-validation\)/);
    expect(summary).toMatch(/WS-1\s+MUST\s+0\s+0/);
    expect(summary).toMatch(/BILL-1\s+MUST\s+0\s+0\s+\[exempt: judges the client/);
    // Every rule of the catalogue has its line.
    for (const rule of rules) expect(summary).toMatch(new RegExp(`^${rule.id}\\s`, 'm'));
    // --only runs a subset: the mechanism count is printed, not judged.
    expect(run.stdout).toMatch(/Mechanisms per MUST rule: not judged/);
    expect(run.code).toBe(0);
  });

  it('exits non-zero when a fault is not caught', () => {
    const run = runMutantsCli({});
    expect(run.stdout).toMatch(new RegExp(`${FAULT}\\s+missing-validation\\s+WS-2\\s+NO`));
    expect(run.stdout).toMatch(/Faults caught: 0\/1/);
    expect(run.code).toBe(1);
  });

  it('exits non-zero when a correct variant fails a rule', () => {
    const run = runMutantsCli({ [FAULT]: ['WS-2'], [VARIANT]: ['WS-2'] });
    expect(run.stdout).toMatch(new RegExp(`${VARIANT}\\s+NO\\s+WS-2`));
    expect(run.stdout).toMatch(/variants passing: 0\/1/);
    expect(run.code).toBe(1);
  });

  it('on a full run, exits non-zero when a MUST rule is killed by faults of fewer than 2 mechanisms', () => {
    // Every fault caught by its own rule only: the rules no fault names (WS-3, ...) are gaps.
    const ownRuleOnly = Object.fromEntries(faultCatalogue.map((fault) => [fault.id, [fault.rule]]));
    const enforced = runMutantsCli(ownRuleOnly, null);
    expect(enforced.stdout).toMatch(/Faults caught: (\d+)\/\1 .* variants passing: (\d+)\/\2/);
    expect(enforced.stdout).toMatch(
      /Mechanisms per MUST rule: FAILED: killed by fewer than 2 distinct mechanisms: .*WS-3 \(no fault\)/,
    );
    expect(enforced.code).toBe(1);
  });

  it('refuses an --only id that names no fault or variant instead of passing with nothing run', () => {
    const run = runMutantsCli({}, `${FAULT},accept-zero-workspace-idd`);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/--only: no fault or variant named "accept-zero-workspace-idd"/),
    ]);
  });
});

const rule = (id: string, level: RuleEntry['level'], latitude?: string): RuleEntry => ({
  id,
  level,
  title: id,
  quotes: [],
  targets: ['sandbox'],
  threats: [],
  ...(latitude ? { latitude } : {}),
});

describe('kills per rule', () => {
  const catalogue = [
    rule('WS-1', 'MUST'),
    rule('WS-2', 'MUST'),
    rule('WS-5', 'SHOULD'),
    rule('BILL-1', 'MUST', 'Client-side rule: checked through @cloud-api/client.'),
  ];
  const kills = ruleKills(
    [
      { id: 'a', mechanism: 'lenient-parse', failedRules: ['WS-1', 'WS-2'] },
      { id: 'b', mechanism: 'lenient-parse', failedRules: ['WS-1', 'WS-5'] },
      { id: 'c', mechanism: 'wrong-default', failedRules: ['WS-2'] },
      { id: 'd', mechanism: 'sign-dropped', failedRules: [] },
    ],
    catalogue,
  );

  it('counts faults and distinct mechanisms for every rule, in catalogue order', () => {
    expect(kills.map((k) => [k.rule, k.faults, k.mechanisms])).toEqual([
      ['WS-1', ['a', 'b'], ['lenient-parse']],
      ['WS-2', ['a', 'c'], ['lenient-parse', 'wrong-default']],
      ['WS-5', ['b'], ['lenient-parse']],
      ['BILL-1', [], []],
    ]);
    expect(renderRuleKills(kills)).toMatch(/^WS-2\s+MUST\s+2\s+2 \(lenient-parse, wrong-default\)$/m);
  });

  it('reports MUST rules killed by fewer mechanisms than required; SHOULD and client rules are not judged', () => {
    expect(mechanismGaps(kills, 2).map((k) => k.rule)).toEqual(['WS-1']);
    expect(mechanismGaps(kills, 3).map((k) => k.rule)).toEqual(['WS-1', 'WS-2']);
  });

  it("exempts exactly the catalogue's client-side rules (BILL-1..4), which no sandbox fault can break", () => {
    expect(rules.filter(judgesTheClient).map((r) => r.id)).toEqual(['BILL-1', 'BILL-2', 'BILL-3', 'BILL-4']);
  });
});

describe('mutation runner against the real suite', () => {
  it('catches a fault by its own rule and lets a correct variant pass', async () => {
    const summary = await runMutants({ only: [FAULT, VARIANT], depth: 3, cliPath });
    const fault = summary.results.find((r) => r.id === FAULT);
    const variant = summary.results.find((r) => r.id === VARIANT);
    expect(fault?.ok).toBe(true);
    expect(fault?.failedRules).toContain('WS-2');
    expect(variant?.ok).toBe(true);
    expect(summary.exitCode).toBe(0);
  });
});
