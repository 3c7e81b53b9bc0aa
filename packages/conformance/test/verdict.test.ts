import { describe, expect, it } from 'vitest';
import type { RuleOutcome, TestOutcome } from '../src/run/outcome.js';
import {
  EXIT_CODES,
  exitCodeOf,
  gateOf,
  incompleteReasonsOf,
  ruleOutcomes,
  totalsOf,
  verdictOf,
} from '../src/run/verdict.js';

const check = (rule: string, state: TestOutcome['state'], extra: Partial<TestOutcome> = {}): TestOutcome => ({
  rule,
  title: `${rule} a check`,
  file: 'checks/unit.ts',
  state,
  durationMs: 1,
  errors: [],
  failures: [],
  ...extra,
});

const finished = {
  interrupted: false,
  deadlineReached: false,
  deadlineSeconds: 600,
  replayNotRun: false,
};

/** The run's verdict from its checks, as the engine decides it. */
function verdictFor(tests: TestOutcome[], strict = false, ending = finished) {
  const rules: RuleOutcome[] = ruleOutcomes(tests);
  const gate = gateOf(strict, rules);
  const reasons = incompleteReasonsOf(ending, tests);
  return { verdict: verdictOf(totalsOf(rules), reasons, gate), reasons, gate };
}

describe('verdict rules (src/run/verdict.ts)', () => {
  it('passes only when every check finished and no MUST rule failed', () => {
    expect(verdictFor([check('WS-1', 'passed'), check('AUTH-1', 'passed')]).verdict).toBe('passed');
    expect(verdictFor([check('WS-1', 'passed'), check('AUTH-1', 'failed')]).verdict).toBe('failed');
    // ASYNC-3 is a SHOULD: its failure warns.
    expect(verdictFor([check('WS-1', 'passed'), check('ASYNC-3', 'failed')]).verdict).toBe('passed');
  });

  it('a MUST failure wins over an unfinished run: what was shown to break the document is shown', () => {
    const { verdict } = verdictFor([check('WS-1', 'failed'), check('AUTH-1', 'incomplete')], false, {
      ...finished,
      interrupted: true,
    });
    expect(verdict).toBe('failed');
  });

  it('an unfinished check, an interrupt or a passed deadline is incomplete, never passed', () => {
    expect(verdictFor([check('WS-1', 'passed'), check('AUTH-1', 'incomplete')]).verdict).toBe('incomplete');
    expect(verdictFor([check('WS-1', 'passed')], false, { ...finished, interrupted: true }).verdict).toBe(
      'incomplete',
    );
    expect(verdictFor([check('WS-1', 'passed')], false, { ...finished, deadlineReached: true }).verdict).toBe(
      'incomplete',
    );
  });

  it('a run with no evidence at all is incomplete, strict or not: every check inconclusive, or none selected', () => {
    const none = verdictFor([check('RESP-3', 'inconclusive'), check('ENUM-1', 'inconclusive')]);
    expect(none.verdict).toBe('incomplete');
    expect(none.reasons.join()).toMatch(/no check saw evidence/);
    const empty = verdictFor([]);
    expect(empty.verdict).toBe('incomplete');
    expect(empty.reasons.join()).toMatch(/no check was selected/);
    // One check with evidence is enough for a lenient run to pass beside an inconclusive one.
    expect(verdictFor([check('RESP-3', 'inconclusive'), check('WS-1', 'passed')]).verdict).toBe('passed');
  });

  it('a run whose every check was skipped (mutating rules with a read-only profile) is not green either', () => {
    const skipped = verdictFor([
      check('ASYNC-1', 'skipped', { skipReason: 'mutations are off' }),
      check('IDEM-1', 'skipped', { skipReason: 'mutations are off' }),
      check('RESP-3', 'inconclusive'),
    ]);
    expect(skipped.verdict).toBe('incomplete');
    expect(skipped.reasons.join()).toMatch(/none passed or failed \(1 inconclusive, 2 skipped\)/);
    // Declared skips are no evidence either.
    const declared = verdictFor([check('AUTH-3', 'skipped', { skipReason: 'x', declaredUnsupported: true })]);
    expect(declared.verdict).toBe('incomplete');
    // Beside one passed rule, a skip is the profile's choice and the run may pass.
    expect(
      verdictFor([check('WS-1', 'passed'), check('ASYNC-1', 'skipped', { skipReason: 'mutations are off' })])
        .verdict,
    ).toBe('passed');
  });

  it('strict: an inconclusive rule or an undeclared skip fails the run; a declared skip does not', () => {
    expect(verdictFor([check('WS-1', 'passed'), check('RESP-3', 'inconclusive')], true).verdict).toBe(
      'failed',
    );
    expect(
      verdictFor(
        [check('WS-1', 'passed'), check('AUTH-3', 'skipped', { skipReason: 'no revoked token' })],
        true,
      ).verdict,
    ).toBe('failed');
    expect(
      verdictFor(
        [check('WS-1', 'passed'), check('AUTH-3', 'skipped', { skipReason: 'x', declaredUnsupported: true })],
        true,
      ).verdict,
    ).toBe('passed');
  });

  it('a pass that left part of its rule unchecked passes leniently, fails the strict gate, and says what', () => {
    const gap = { what: 'getCloudVmSnapshotRestore: no identity lacks vm.read', remedy: 'add one' };
    const tests = [check('WS-1', 'passed'), check('SCOPE-1', 'passed', { gaps: [gap] })];
    expect(verdictFor(tests).verdict).toBe('passed');
    const strict = verdictFor(tests, true);
    expect(strict.verdict).toBe('failed');
    expect(strict.gate.problems).toEqual([
      'SCOPE-1 passed without checking getCloudVmSnapshotRestore: no identity lacks vm.read (what to do: add one)',
    ]);
    // A failed rule's gaps add nothing: the failure already decides.
    expect(gateOf(true, ruleOutcomes([check('SCOPE-1', 'failed', { gaps: [gap] })])).problems).toEqual([]);
  });

  it('maps verdicts to exit codes 0, 1, 3', () => {
    expect(exitCodeOf({ verdict: 'passed' })).toBe(EXIT_CODES.passed);
    expect(exitCodeOf({ verdict: 'failed' })).toBe(1);
    expect(exitCodeOf({ verdict: 'incomplete' })).toBe(3);
  });
});
