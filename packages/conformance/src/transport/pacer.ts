/**
 * How much later one request may arrive than the next without the target counting one too many:
 * a busy event loop on either side can hold one request back this long (CI machines measured up
 * to ~80 ms under load).
 */
const JITTER_ALLOWANCE_MS = 100;

export interface Pacer {
  /** Resolves when the next request may leave; `undefined` when it may leave now (no limit, no pause). */
  pace(): Promise<void> | undefined;
  /** Holds every request until `until` (ms since the epoch): the target answered 429. */
  pauseUntil(until: number): void;
  readonly pausedUntil: number;
}

/**
 * Spaces requests to the profile's rate limit. The target counts arrivals, not sends: requests
 * are spaced so that any `rateLimitPerSecond + 1` of them span JITTER_ALLOWANCE_MS more than a
 * second, and a window of the last sends keeps a late send and an on-time one from bunching up.
 */
export function createPacer(rateLimitPerSecond: number | undefined): Pacer {
  const interval = rateLimitPerSecond ? (1000 + JITTER_ALLOWANCE_MS) / rateLimitPerSecond : 0;
  const windowLimit = rateLimitPerSecond ? Math.max(1, Math.floor(rateLimitPerSecond)) : 0;
  const recentSends: number[] = [];
  let nextSlot = 0;
  let pausedUntil = 0;
  // Concurrent sends take their slots one after another: two waiters woken together must not
  // both see the window free.
  let queue: Promise<void> = Promise.resolve();

  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  async function paceOne(): Promise<void> {
    const slot = Math.max(Date.now(), nextSlot, pausedUntil);
    if (interval) nextSlot = slot + interval;
    // A timer may fire a millisecond early by the wall clock: wait until the slot has really come.
    while (Date.now() < slot) await sleep(slot - Date.now());
    if (!windowLimit) return;
    for (;;) {
      const oldest =
        recentSends.length >= windowLimit ? (recentSends[recentSends.length - windowLimit] as number) : 0;
      const free = oldest + 1000 + JITTER_ALLOWANCE_MS;
      if (Date.now() >= free) break;
      await sleep(free - Date.now());
    }
    recentSends.push(Date.now());
    if (recentSends.length > windowLimit) recentSends.splice(0, recentSends.length - windowLimit);
  }

  return {
    get pausedUntil() {
      return pausedUntil;
    },
    pauseUntil(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
    pace() {
      if (!interval && Date.now() >= pausedUntil) return undefined;
      const turn = queue.then(paceOne);
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}
