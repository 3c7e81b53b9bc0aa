import { loadOpenApiDocument, operationCatalogue } from '@cloud-api/spec';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../src/reporters/junitReport.js';
import { renderTable } from '../src/reporters/tableReport.js';
import { rules } from '../src/ruleCatalogue/index.js';
import type { RunOutcome, TestOutcome } from '../src/run/outcome.js';
import { exitCodeOf, gateOf, ruleOutcomes, totalsOf, verdictOf } from '../src/run/verdict.js';
import { runCoverage } from '../src/specCoverage/coverageReport.js';

function outcomeOf(
  tests: TestOutcome[],
  options: { strict?: boolean; incomplete?: string[] } = {},
): RunOutcome {
  const rules = ruleOutcomes(tests);
  const gate = gateOf(options.strict === true, rules);
  const incompleteReasons = options.incomplete ?? [];
  return {
    verdict: verdictOf(totalsOf(rules), incompleteReasons, gate),
    coverage: runCoverage([], []),
    incompleteReasons,
    gate,
    info: {
      runId: '00000000-0000-4000-8000-000000000001',
      suiteVersion: '0.1.0',
      suiteBuild: 'checks-000000000000',
      specHash: 'f'.repeat(64),
      target: 'unit',
      targetKind: 'real',
      seed: 42,
      concurrency: 1,
      depth: 5,
      profile: {} as RunOutcome['info']['profile'],
      startedAt: new Date(0).toISOString(),
      durationMs: 1500,
    },
    rules,
    tests,
    runErrors: [],
    created: [
      { rule: 'ASYNC-1', kind: 'cloud VM', id: 'vm-1', cleanup: 'not cleaned up: no delete endpoint' },
    ],
    totals: totalsOf(rules),
  };
}

const test = (rule: string, state: TestOutcome['state'], extra: Partial<TestOutcome> = {}): TestOutcome => ({
  rule,
  title: `${rule} check`,
  file: 'x.property.ts',
  state,
  durationMs: 3,
  errors: state === 'failed' ? [`[${rule}] GET /x answered 200, expected 403 <&>`] : [],
  failures: [],
  ...extra,
});

describe('reports', () => {
  it('aggregates checks per rule: one failing check fails the rule, all skipped skips it', () => {
    const rules = ruleOutcomes([
      test('WS-1', 'passed'),
      test('WS-1', 'failed'),
      test('AUTH-3', 'skipped', { skipReason: 'profile has no revokedToken' }),
    ]);
    expect(rules.map((r) => [r.id, r.state])).toEqual([
      ['WS-1', 'failed'],
      ['AUTH-3', 'skipped'],
    ]);
    expect(rules[1]?.skipReasons).toEqual(['profile has no revokedToken']);
  });

  it('fails the run on a MUST failure and only warns on a SHOULD failure', () => {
    expect(exitCodeOf(outcomeOf([test('ASYNC-3', 'failed'), test('WS-1', 'passed')]))).toBe(0);
    expect(exitCodeOf(outcomeOf([test('ASYNC-3', 'passed'), test('WS-1', 'failed')]))).toBe(1);
    const table = renderTable(
      outcomeOf([
        test('ASYNC-3', 'failed'),
        test('AUTH-3', 'skipped', { skipReason: 'profile has no revokedToken' }),
      ]),
    );
    expect(table).toMatch(/ASYNC-3\s+SHOULD\s+WARN/);
    expect(table).toMatch(/AUTH-3\s+MUST\s+SKIP\s+profile has no revokedToken/);
    expect(table).toMatch(/cloud VM vm-1 \(ASYNC-1\): not cleaned up/);
    expect(table).toMatch(
      /Rules: 0 passed, 1 failed \(0 MUST, 1 SHOULD\), 0 inconclusive, 0 incomplete, 1 skipped/,
    );
    expect(table).toMatch(/Verdict: PASSED/);
  });

  it('lists what the run left one line per kind and fate, every id kept, on wrapped lines under it', () => {
    const noDelete = 'not cleaned up: the document specifies no cloud VM delete endpoint';
    const vms = Array.from({ length: 5 }, (_, i) => ({
      rule: i < 3 ? 'IDEM-2' : 'CONC-2',
      kind: 'cloud VM',
      id: `${String(i).repeat(8)}-e3d0-46fa-8b51-73824d33dfc2`,
      cleanup: noDelete,
    }));
    const outcome = {
      ...outcomeOf([test('WS-1', 'passed')]),
      created: [
        ...vms,
        // A create replayed to another rule (the same 202 answered twice) is one VM.
        { ...vms[0], rule: 'BILL-6' } as (typeof vms)[number],
        { rule: 'PATCH-1', kind: 'NAT rule change', id: 'pfr-1', cleanup: 'put back' },
        // An outcome read back from an older report may hold an id that is no text.
        ...[undefined, null].map((id) => ({
          rule: 'ASYNC-1',
          kind: 'GPU VM',
          id: id as unknown as string,
          cleanup: 'gone',
        })),
      ],
    };
    const section = renderTable(outcome).split('Created or changed by this run:\n')[1]?.split('\n\n')[0];
    expect(section?.split('\n')).toEqual([
      `  cloud VM, 5 of them (IDEM-2, CONC-2, BILL-6): ${noDelete}`,
      `    ${vms
        .slice(0, 2)
        .map((v) => v.id)
        .join(', ')},`,
      `    ${vms
        .slice(2, 4)
        .map((v) => v.id)
        .join(', ')},`,
      `    ${vms[4]?.id}`,
      '  NAT rule change pfr-1 (PATCH-1): put back',
      '  GPU VM, 2 of them (ASYNC-1): gone',
      '    undefined, null',
    ]);
  });

  it('a lenient pass names the rules it has no evidence for; a strict pass says it has evidence for all', () => {
    const lenient = renderTable(
      outcomeOf([
        test('WS-1', 'passed'),
        test('RESP-3', 'inconclusive', { reason: 'no evidence: list buckets answered 500' }),
      ]),
    );
    expect(lenient).toMatch(
      /Verdict: PASSED — no rule was seen broken, but 1 rule has no evidence \(RESP-3: inconclusive, see above\); --strict fails such a run/,
    );
    expect(renderTable(outcomeOf([test('WS-1', 'passed')]))).toMatch(/Verdict: PASSED$/m);
  });

  it('a pass with SHOULD rules seen broken names them in the verdict line', () => {
    const warned = outcomeOf([
      test('WS-1', 'passed'),
      test('WS-5', 'failed', { reason: 'accepted " 1042"' }),
    ]);
    expect(warned.verdict).toBe('passed');
    expect(renderTable(warned)).toMatch(/Verdict: PASSED — with 1 SHOULD warning \(WS-5: see above\)$/m);
  });

  it('never calls a check without evidence or an unfinished check a pass', () => {
    const inconclusive = test('RESP-3', 'inconclusive', { reason: 'no evidence: list buckets answered 500' });
    const incomplete = test('WS-1', 'incomplete', {
      reason: 'not run: the run deadline (--deadline 5 s) passed',
    });
    const rules = ruleOutcomes([test('RESP-3', 'passed'), inconclusive, test('WS-1', 'passed'), incomplete]);
    expect(rules.map((r) => [r.id, r.state])).toEqual([
      ['RESP-3', 'inconclusive'],
      ['WS-1', 'incomplete'],
    ]);
    const outcome = outcomeOf([inconclusive, incomplete], { incomplete: ['the run deadline passed'] });
    expect(outcome.verdict).toBe('incomplete');
    expect(exitCodeOf(outcome)).toBe(3);
    const table = renderTable(outcome);
    expect(table).toMatch(/RESP-3\s+MUST\s+INCONCLUSIVE\s+no evidence: list buckets answered 500/);
    expect(table).toMatch(/WS-1\s+MUST\s+INCOMPLETE\s+not run: the run deadline/);
    expect(table).toMatch(/Verdict: INCOMPLETE — not a pass: the run deadline passed/);
    const xml = renderJunit(outcome);
    expect(xml).toContain(
      '<error type="incomplete" message="not run: the run deadline (--deadline 5 s) passed"/>',
    );
    expect(xml).toMatch(/<testsuites [^>]*errors="1"/);
    expect(xml).toContain('<skipped message="inconclusive: no evidence: list buckets answered 500"/>');
  });

  it('a MUST failure wins over an unfinished run: failed, exit 1', () => {
    const outcome = outcomeOf([test('WS-1', 'failed'), test('WS-2', 'incomplete', { reason: 'not run' })], {
      incomplete: ['1 check did not finish'],
    });
    expect(outcome.verdict).toBe('failed');
    expect(exitCodeOf(outcome)).toBe(1);
  });

  it('in the strict gate, an inconclusive rule or an undeclared skip fails the run; a declared skip does not', () => {
    const declared = test('AUTH-3', 'skipped', {
      skipReason: 'target does not claim this rule: no revocation in staging',
      declaredUnsupported: true,
    });
    const undeclared = test('BILL-6', 'skipped', { skipReason: 'profile has no workspaces.billingDenied' });
    const inconclusive = test('ENUM-1', 'inconclusive', { reason: 'no evidence' });
    expect(outcomeOf([test('WS-1', 'passed'), declared], { strict: true }).verdict).toBe('passed');
    expect(outcomeOf([test('WS-1', 'passed'), undeclared]).verdict).toBe('passed');
    const strictUndeclared = outcomeOf([test('WS-1', 'passed'), undeclared], { strict: true });
    expect(strictUndeclared.verdict).toBe('failed');
    expect(strictUndeclared.gate.problems).toEqual([
      'BILL-6 was skipped (profile has no workspaces.billingDenied) without an unsupportedRules entry',
    ]);
    expect(renderJunit(strictUndeclared)).toContain('type="strict-gate-undeclared-skip"');
    // What a target sent back reaches the XML as text, never as a control a log viewer acts on.
    const hostile = renderJunit(
      outcomeOf([test('WS-1', 'failed', { errors: ['[WS-1] detail "\u001b[2J\u009b31m" from the target'] })]),
    );
    expect(['\u001b', '\u009b'].filter((control) => hostile.includes(control))).toEqual([]);
    expect(hostile).toContain('\\u001b[2J\\u009b31m');
    const strictInconclusive = outcomeOf([inconclusive], { strict: true });
    expect(strictInconclusive.verdict).toBe('failed');
    expect(exitCodeOf(strictInconclusive)).toBe(1);
    expect(renderTable(strictInconclusive)).toMatch(/Verdict: FAILED — strict gate: 1 problem/);
  });

  it('writes JUnit XML with the rule as a property and escapes failure text', () => {
    const xml = renderJunit(
      outcomeOf([test('WS-2', 'failed'), test('AUTH-3', 'skipped', { skipReason: 'no "revoked" token' })]),
    );
    expect(xml).toContain('<property name="rule" value="WS-2"/>');
    expect(xml).toContain('<property name="seed" value="42"/>');
    expect(xml).toContain(
      'type="must-violation" message="[WS-2] GET /x answered 200, expected 403 &lt;&amp;&gt;"',
    );
    expect(xml).toContain('<skipped message="no &quot;revoked&quot; token"/>');
  });
});

describe('coverage in the table', () => {
  const nothingSeen = runCoverage(operationCatalogue(loadOpenApiDocument()), []);
  const withCoverage = (outcome: RunOutcome): RunOutcome => ({ ...outcome, coverage: nothingSeen });

  it('lists what each operation left unobserved after a run of every rule', () => {
    const table = renderTable(withCoverage(outcomeOf(rules.map((rule) => test(rule.id, 'passed')))));
    expect(table).toMatch(/^ {2}createCloudVm: responses not observed: 202/m);
    expect(table).not.toMatch(/this run checked/);
  });

  it('prints only the totals after a run of some rules (a replay, --rules, a shard), saying why', () => {
    const table = renderTable(withCoverage(outcomeOf([test('WS-1', 'passed')])));
    expect(table).toMatch(/^Coverage: 0 of \d+ documented/m);
    expect(table).toContain(`(this run checked 1 of the ${rules.length} rules;`);
    expect(table).not.toMatch(/responses not observed/);
  });
});
