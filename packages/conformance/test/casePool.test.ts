import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plannedCases, runCasePool } from '../src/run/casePool.js';

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('plannedCases', () => {
  it('lists exactly the cases fc.check hands a passing property, examples first, for any seed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 30 }),
        (seed, numRuns) => {
          const arbitrary = fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.string({ maxLength: 5 }));
          const examples: [[string, string]][] = [[['x', 'example']]];
          const seen: unknown[] = [];
          fc.check(
            fc.property(arbitrary, (value) => {
              seen.push(value);
            }),
            { numRuns: numRuns + 1, examples, seed },
          );
          const planned = plannedCases(arbitrary, { numRuns: numRuns + 1, examples, seed });
          expect(planned).toEqual(seen);
          expect(planned[0]).toEqual(['x', 'example']);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('runCasePool', () => {
  it('never has more than `limit` cases in flight, and evaluates every case once when all pass', async () => {
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    const failure = await runCasePool(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async (value) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await tick(value % 4);
        inFlight--;
        done.push(value);
      },
      () => false,
    );
    expect(failure).toBeUndefined();
    expect(most).toBe(3);
    expect([...done].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('starts nothing after a failure, waits for the cases in flight, and returns the first failure in plan order', async () => {
    const started: number[] = [];
    let settled = 0;
    const failure = await runCasePool(
      [0, 1, 2, 3, 4, 5, 6, 7],
      3,
      async (value) => {
        started.push(value);
        // Case 1 fails first, case 2 later, case 0 passes in between: nothing else starts, and
        // the pool reports case 1, the earlier failure in the plan.
        await tick(value === 2 ? 20 : value === 0 ? 10 : 5);
        settled++;
        if (value === 1 || value === 2) throw new Error(`case ${value}`);
      },
      () => false,
    );
    expect(failure?.index).toBe(1);
    expect((failure?.error as Error | undefined)?.message).toBe('case 1');
    expect(started).toEqual([0, 1, 2]);
    expect(settled).toBe(3);
  });

  it('stops starting cases once `stop()` is true', async () => {
    const started: number[] = [];
    await runCasePool(
      [0, 1, 2, 3, 4, 5],
      2,
      async (value) => {
        started.push(value);
        await tick(1);
      },
      () => started.length >= 3,
    );
    expect(started).toEqual([0, 1, 2]);
  });
});
