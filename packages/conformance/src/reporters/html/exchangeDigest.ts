import type { ExchangeEvent } from '../../run/events.js';

/** How many of a failed check's last requests the report keeps, to show around its counterexample. */
export const RECENT_EXCHANGES = 10;

export interface OperationTiming {
  /** The spec's operationId, or the method and path of a request the spec does not have. */
  readonly operation: string;
  readonly count: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

export interface ExchangeDigest {
  /** Requests the run's checks sent. */
  readonly requests: number;
  readonly operations: readonly OperationTiming[];
  /** Per failed check (by title): its last requests, oldest first. */
  readonly recentOfFailed: ReadonlyMap<string, readonly ExchangeEvent[]>;
}

/** The value below which `fraction` of the sorted values lie (nearest rank). */
function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

/**
 * What the HTML report keeps of a run's traffic: durations per operation (numbers only), and the
 * last few requests of each check, dropped at its end unless it failed. Bounded, whatever the
 * run sends.
 */
export function createExchangeDigest() {
  const durations = new Map<string, number[]>();
  const recentOfFailed = new Map<string, readonly ExchangeEvent[]>();
  let recent: ExchangeEvent[] = [];
  let requests = 0;
  return {
    add(event: ExchangeEvent): void {
      requests++;
      const path = (() => {
        try {
          return new URL(event.url).pathname;
        } catch {
          return event.url;
        }
      })();
      const key = event.operationId ?? `${event.method} ${path}`;
      const list = durations.get(key) ?? [];
      list.push(event.durationMs);
      durations.set(key, list);
      recent.push(event);
      if (recent.length > RECENT_EXCHANGES) recent.shift();
    },
    checkEnded(title: string, failed: boolean): void {
      if (failed) recentOfFailed.set(title, recent);
      recent = [];
    },
    digest(): ExchangeDigest {
      const operations = [...durations].map(([operation, values]): OperationTiming => {
        const sorted = [...values].sort((a, b) => a - b);
        return {
          operation,
          count: sorted.length,
          p50Ms: percentile(sorted, 0.5),
          p95Ms: percentile(sorted, 0.95),
          maxMs: sorted.at(-1) ?? 0,
        };
      });
      return { requests, operations, recentOfFailed };
    },
  };
}
