/**
 * How much later one request may arrive than the next without the target counting one too many:
 * a busy event loop on either side can hold one request back this long (CI machines measured up
 * to ~80 ms under load).
 */
const JITTER_ALLOWANCE_MS = 100;

export interface Pacer {
  /** Resolves when the next request may leave; `undefined` when it may leave now (no limit, no pause). */
  pace(): Promise<void> | undefined;
  /**
   * Resolves when `count` requests may leave at the same moment (a race check's copies, which
   * spaced out would never overlap): `true` once they are admitted, `false` at once when the
   * limit allows fewer than `count` in a second (they are then paced one by one).
   */
  paceTogether(count: number): Promise<boolean>;
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

  /**
   * Admits `count` sends at one moment. A group takes the slots of `count` spaced sends and leaves
   * at the last of them, and the next send waits as many slots again, so any
   * `rateLimitPerSecond + 1` sends, a group among them, still span more than a second.
   */
  async function paceGroup(count: number): Promise<void> {
    const slot = Math.max(Date.now(), nextSlot, pausedUntil);
    const leave = slot + (count - 1) * interval;
    if (interval) nextSlot = leave + count * interval;
    // A timer may fire a millisecond early by the wall clock: wait until the slot has really come.
    while (Date.now() < leave) await sleep(leave - Date.now());
    if (!windowLimit) return;
    // The window of the last sends: this group and the sends before it within one limit.
    const before = windowLimit + 1 - count;
    for (;;) {
      const oldest = recentSends.length >= before ? (recentSends[recentSends.length - before] as number) : 0;
      const free = oldest + 1000 + JITTER_ALLOWANCE_MS;
      if (Date.now() >= free) break;
      await sleep(free - Date.now());
    }
    const now = Date.now();
    for (let sent = 0; sent < count; sent++) recentSends.push(now);
    if (recentSends.length > windowLimit) recentSends.splice(0, recentSends.length - windowLimit);
  }

  const queued = (count: number): Promise<void> => {
    const turn = queue.then(() => paceGroup(count));
    queue = turn.catch(() => undefined);
    return turn;
  };

  return {
    get pausedUntil() {
      return pausedUntil;
    },
    pauseUntil(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
    pace() {
      if (!interval && Date.now() >= pausedUntil) return undefined;
      return queued(1);
    },
    async paceTogether(count) {
      if (windowLimit && count > windowLimit) return false;
      if (!interval && Date.now() >= pausedUntil) return true;
      await queued(count);
      return true;
    },
  };
}
