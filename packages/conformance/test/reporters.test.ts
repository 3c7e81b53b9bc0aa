import { describe, expect, it } from 'vitest';
import { renderJunit } from '../src/reporters/junitReport.js';
import {
  exitCodeOf,
  type RunOutcome,
  ruleOutcomes,
  type TestOutcome,
  totalsOf,
} from '../src/reporters/runOutcome.js';
import { renderTable } from '../src/reporters/tableReport.js';

function outcomeOf(tests: TestOutcome[]): RunOutcome {
  const rules = ruleOutcomes(tests);
  return {
    info: {
      suiteVersion: '0.1.0',
      specHash: 'f'.repeat(64),
      target: 'unit',
      targetKind: 'real',
      seed: 42,
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
    expect(table).toMatch(/Rules: 0 passed, 1 failed \(0 MUST, 1 SHOULD\), 1 skipped/);
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
