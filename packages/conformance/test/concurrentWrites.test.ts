import { describe, expect, it } from 'vitest';
import { type AsyncStoreChoices, CORRECT_CHOICES, runOnAsyncStore } from './asyncStoreServer.js';

/** The CONC rules against an implementation that is not the sandbox, built correctly or with one race. */
async function concVerdicts(choices: AsyncStoreChoices, concurrency = 4): Promise<Record<string, string>> {
  const outcome = await runOnAsyncStore(choices, { rules: 'CONC-*', depth: 5, seed: 7, concurrency });
  return Object.fromEntries(outcome.tests.map((test) => [test.rule, test.state]));
}

describe('writes in flight together, against an independent server on an async store', () => {
  it('passes every CONC rule on a correct one that differs from the sandbox (UUID ids, waiting copies, a lock per rule)', async () => {
    expect(await concVerdicts(CORRECT_CHOICES)).toEqual({
      'CONC-1': 'passed',
      'CONC-2': 'passed',
      'CONC-3': 'passed',
    });
  });

  it.each([
    ['idempotency', 'check-then-act', 'CONC-1'],
    ['vmIds', 'count-then-write', 'CONC-2'],
    ['updates', 'read-modify-write', 'CONC-3'],
  ] as const)('fails exactly the rule its race breaks: %s %s → %s', async (concern, race, rule) => {
    const verdicts = await concVerdicts({ ...CORRECT_CHOICES, [concern]: race });
    expect(verdicts[rule]).toBe('failed');
    for (const other of ['CONC-1', 'CONC-2', 'CONC-3'].filter((id) => id !== rule))
      expect(verdicts[other], other).toBe('passed');
  });

  it('never passes a race it could not provoke: one request at a time is inconclusive', async () => {
    const verdicts = await concVerdicts(
      { idempotency: 'check-then-act', vmIds: 'count-then-write', updates: 'read-modify-write' },
      1,
    );
    expect(verdicts).toEqual({
      'CONC-1': 'inconclusive',
      'CONC-2': 'inconclusive',
      'CONC-3': 'inconclusive',
    });
  });
});
