export interface InFlightLimit {
  /** Takes a slot: at once (`undefined`) when one is free and nobody waits, else when one frees. */
  acquire(): Promise<void> | undefined;
  release(): void;
  /** Lowers the bound from now on (after a 429 the run sends one request at a time). */
  lowerTo(limit: number): void;
}

/**
 * The concurrency bound, held at the wire whatever a check awaits together. A freed slot goes to
 * the next waiter at once, so no newcomer slips in ahead of it.
 */
export function createInFlightLimit(limit: number): InFlightLimit {
  let max = Math.max(1, limit);
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    acquire() {
      if (active < max && waiting.length === 0) {
        active++;
        return undefined;
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    release() {
      active--;
      while (active < max && waiting.length > 0) {
        active++;
        waiting.shift()?.();
      }
    },
    lowerTo(next) {
      max = Math.max(1, Math.min(max, next));
    },
  };
}
