import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { disjointUpdates, type OverlapPlan, overlapPlan } from '../src/generate/overlap.js';

/**
 * Every plan a failing property is handed, first case to last shrink, in the tuple shape the
 * CONC checks use (something before the plan).
 */
async function plansWhileShrinking(seed: number): Promise<unknown[]> {
  const seen: unknown[] = [];
  let calls = 0;
  await fc.check(
    fc.asyncProperty(
      fc.tuple(
        disjointUpdates(fc.record({ note: fc.string(), name: fc.string() })),
        overlapPlan({ min: 2, max: 3 }),
      ),
      async ([, plan]: readonly [unknown, OverlapPlan]) => {
        seen.push(plan.delaysMs);
        calls++;
        // Fails from the third case on, so fast-check shrinks every part of the tuple.
        if (calls >= 3) throw new Error('fails');
      },
    ),
    { numRuns: 10, seed },
  );
  return seen;
}

describe('overlapPlan', () => {
  it('keeps one delay per copy in every case a shrinking failure is handed (the plan is never half-cloned)', async () => {
    for (const seed of [1087858876, 1, 42, 7]) {
      const plans = await plansWhileShrinking(seed);
      expect(plans.length, `seed ${seed}: shrinking ran`).toBeGreaterThan(3);
      for (const delays of plans) {
        expect(Array.isArray(delays), `seed ${seed}: ${JSON.stringify(delays)}`).toBe(true);
        expect((delays as number[]).length).toBeGreaterThanOrEqual(2);
        expect((delays as number[]).length).toBeLessThanOrEqual(3);
      }
    }
  });
});
