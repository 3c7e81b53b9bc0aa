/**
 * The wait a real store's round trip puts between a read and the write that depends on it: the
 * window in which overlapping requests interleave. Only the concurrency faults and variants take
 * it; the default sandbox answers synchronously, so its speed is unchanged.
 */
export const STORE_ROUND_TRIP_MS = 5;

export function storeRoundTrip(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, STORE_ROUND_TRIP_MS));
}
