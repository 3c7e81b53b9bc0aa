import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { faultCatalogue } from '@cloud-api/sandbox';
import { describe, expect, it } from 'vitest';
import { runMutants } from '../src/mutants/mutationRun.js';
import {
  judgesTheClient,
  mechanismGaps,
  type RuleKill,
  renderRuleKills,
  renderThreatKills,
  ruleKills,
  threatTotals,
} from '../src/mutants/ruleKills.js';
import { type RuleEntry, rules, type ThreatMechanism } from '../src/ruleCatalogue/index.js';
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
  extraArgs: readonly string[] = [],
) {
  const result = spawnSync(
    process.execPath,
    [
      mutantsCli,
      ...(only === null ? [] : ['--only', only]),
      ...extraArgs,
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

  it("prints each rule's threats, the fault that killed each and the ones still to do, and writes them as JSON with --json", () => {
    const json = join(mkdtempSync(join(tmpdir(), 'conformance-mutants-json-')), 'nested', 'mutants.json');
    const run = runMutantsCli({ [FAULT]: ['WS-2', 'ERR-3'] }, `${FAULT},${VARIANT}`, ['--json', json]);
    expect(run.code).toBe(0);
    const threats = run.stdout.slice(run.stdout.indexOf('Threats per rule'));
    const ws2 = rules.find((r) => r.id === 'WS-2')?.threats.length;
    expect(threats).toMatch(
      new RegExp(`^WS-2\\s+1/${ws2}\\s+killed: missing-validation \\(${FAULT}\\); to do: `, 'm'),
    );
    // A mechanism only the fault that ran has is listed by ERR-3 as unforeseen.
    expect(threats).toMatch(/^ERR-3\s+0\/\d+\s+to do: .*; unlisted: missing-validation$/m);
    // Mechanisms of faults that did not run still count as having a fault (--only is a subset).
    expect(threats).toMatch(/^WS-1\s+0\/\d+\s+to do: wrong-default, falsy-default, /m);
    expect(run.stdout).toMatch(/Threats killed: 1\/\d+; \d+ of the rest have no sandbox fault/);

    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      kind: string;
      ruleKills: RuleKill[];
      threats: { listed: number; killed: number };
    };
    expect(report.kind).toBe('mutation-report');
    expect(report.threats).toMatchObject({
      listed: rules.reduce((sum, r) => sum + r.threats.length, 0),
      killed: 1,
    });
    const ws2Threats = report.ruleKills.find((kill) => kill.rule === 'WS-2')?.threats ?? [];
    expect(ws2Threats.find((threat) => threat.mechanism === 'missing-validation')).toMatchObject({
      status: 'killed',
      killedBy: [FAULT],
    });
    expect(ws2Threats.every((threat) => threat.how.length > 0)).toBe(true);
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

const rule = (
  id: string,
  level: RuleEntry['level'],
  latitude?: string,
  mechanisms: readonly ThreatMechanism[] = [],
): RuleEntry => ({
  id,
  level,
  title: id,
  quotes: [],
  targets: ['sandbox'],
  threats: mechanisms.map((mechanism) => ({ mechanism, how: `${id} broken by ${mechanism}.` })),
  ...(latitude ? { latitude } : {}),
});

describe('kills per rule', () => {
  const catalogue = [
    rule('WS-1', 'MUST', undefined, ['wrong-default', 'lenient-parse', 'cache-key-missing-dimension']),
    rule('WS-2', 'MUST', undefined, ['lenient-parse', 'wrong-default', 'sign-dropped', 'type-coercion']),
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

  it('marks each listed threat killed (by which faults), not killed although faults of it exist, or without a fault', () => {
    const threatsOf = (id: string) =>
      kills.find((k) => k.rule === id)?.threats.map((t) => [t.mechanism, t.status, t.killedBy]);
    expect(threatsOf('WS-1')).toEqual([
      // c is a wrong-default fault, but WS-1 did not fail under it.
      ['wrong-default', 'not-killed', []],
      ['lenient-parse', 'killed', ['a', 'b']],
      ['cache-key-missing-dimension', 'no-fault', []],
    ]);
    expect(threatsOf('WS-2')).toEqual([
      ['lenient-parse', 'killed', ['a']],
      ['wrong-default', 'killed', ['c']],
      ['sign-dropped', 'not-killed', []],
      ['type-coercion', 'no-fault', []],
    ]);
    // WS-5 lists no threat, yet a lenient-parse fault killed it: a cause its list did not foresee.
    expect(kills.map((k) => [k.rule, k.unlistedMechanisms])).toEqual([
      ['WS-1', []],
      ['WS-2', []],
      ['WS-5', ['lenient-parse']],
      ['BILL-1', []],
    ]);
    expect(threatTotals(kills)).toEqual({ listed: 7, killed: 3, withoutFault: 2 });
    expect(renderThreatKills(kills)).toMatch(
      /^WS-2\s+2\/4\s+killed: lenient-parse \(a\), wrong-default \(c\); to do: sign-dropped, type-coercion \[no fault yet\]$/m,
    );
    expect(renderThreatKills(kills)).toMatch(/^WS-5\s+0\/0\s+unlisted: lenient-parse$/m);
  });

  it('counts a threat as having a fault when any fault of the sandbox has its mechanism, run or not', () => {
    const [ws2] = ruleKills([], [catalogue[1] as RuleEntry], new Set(['type-coercion']));
    expect(ws2?.threats.map((t) => t.status)).toEqual(['no-fault', 'no-fault', 'no-fault', 'not-killed']);
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
