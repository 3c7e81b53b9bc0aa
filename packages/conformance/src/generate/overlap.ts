import fc from 'fast-check';

/**
 * How copies of a write are let go together: fast-check's scheduler picks the order in which
 * their dispatches are released, and each copy waits its own small delay (0 to 5 ms) before it is
 * sent, so the copies land at the target in different interleavings. A failure shrinks to the
 * fewest copies, no delays and the plainest order, and prints that schedule.
 */
export interface OverlapPlan {
  /** Absent: released in order (the plain first case). */
  readonly scheduler?: fc.Scheduler;
  /** One delay per copy: the number of copies is its length. */
  readonly delaysMs: readonly number[];
}

export function overlapPlan(copies: {
  readonly min: number;
  readonly max: number;
}): fc.Arbitrary<OverlapPlan> {
  // The scheduler must come last, here and in every tuple that holds a plan: fast-check 4.10-4.11
  // clones a shrunk tuple only up to its last cloneable element, so a value after the scheduler
  // came back undefined while a failure shrank (CONC-3 then crashed on its own plan).
  return fc.record({
    delaysMs: fc.array(fc.constantFrom(0, 1, 5), { minLength: copies.min, maxLength: copies.max }),
    scheduler: fc.scheduler(),
  });
}

/**
 * The first case every overlap check runs: the copies released in order, none delayed, so a
 * target that answers within a millisecond still has them in flight together.
 */
export function plainOverlap(copies: number): OverlapPlan {
  return { delaysMs: Array.from({ length: copies }, () => 0) };
}

/**
 * Two partial updates of different fields: every field of a full update goes to the first, the
 * second or neither, and each gets at least one.
 */
export function disjointUpdates<T extends Record<string, unknown>>(
  full: fc.Arbitrary<T>,
): fc.Arbitrary<readonly [Partial<T>, Partial<T>]> {
  return fc
    .tuple(full, fc.array(fc.constantFrom(0, 1, 2), { minLength: 16, maxLength: 16 }))
    .map(([values, sides]) => {
      const first: Partial<T> = {};
      const second: Partial<T> = {};
      Object.keys(values).forEach((field, index) => {
        const side = sides[index % sides.length];
        if (side === 0) (first as Record<string, unknown>)[field] = values[field];
        if (side === 1) (second as Record<string, unknown>)[field] = values[field];
      });
      return [first, second] as const;
    })
    .filter(([first, second]) => Object.keys(first).length > 0 && Object.keys(second).length > 0);
}
