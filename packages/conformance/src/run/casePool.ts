import fc from 'fast-check';

/** What fast-check needs to generate a property's cases: the same seed gives the same cases. */
export interface CasePlanOptions {
  readonly numRuns: number;
  readonly examples: readonly [unknown][];
  readonly seed: number;
}

/**
 * The cases `fc.check` would hand a property that never fails, in its order: the examples, then
 * `numRuns` generated values. Generation does not depend on the predicate, so evaluating these
 * concurrently sends exactly the requests a sequential run sends.
 */
export function plannedCases<T>(arbitrary: fc.Arbitrary<T>, options: CasePlanOptions): T[] {
  const cases: T[] = [];
  fc.check(
    fc.property(arbitrary, (value) => {
      cases.push(value);
    }),
    { numRuns: options.numRuns, examples: options.examples as [T][], seed: options.seed },
  );
  return cases;
}

export interface PooledFailure<T> {
  /** Position of the failing case in the plan: with several failures, the first one in plan order. */
  readonly index: number;
  readonly value: T;
  readonly error: unknown;
}

/**
 * Evaluates every case with at most `limit` in flight. After a failure, or once `stop()` is true,
 * no further case starts; the cases already in flight are always awaited, so nothing a check
 * started is still running when it reports (a NAT rule put back, a response read).
 */
export async function runCasePool<T>(
  cases: readonly T[],
  limit: number,
  evaluate: (value: T) => Promise<void>,
  stop: () => boolean,
): Promise<PooledFailure<T> | undefined> {
  const failures: PooledFailure<T>[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < cases.length && failures.length === 0 && !stop()) {
      const index = next++;
      const value = cases[index] as T;
      try {
        await evaluate(value);
      } catch (error) {
        failures.push({ index, value, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, cases.length)) }, lane));
  return failures.sort((a, b) => a.index - b.index)[0];
}
