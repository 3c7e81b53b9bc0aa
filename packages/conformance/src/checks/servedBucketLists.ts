import type { ExchangeRecorder } from '../spec/operationRoutes.js';
import type { Exchange } from '../transport/exchange.js';

/** The bucket lists the run saw served (2xx), whichever check asked: RESP-3 judges them all. */
export interface ServedBucketLists extends ExchangeRecorder {
  /** How many were served, and the first few that were not a JSON array. */
  seen(): { readonly served: number; readonly notArrays: readonly Exchange[] };
}

/** A few answers are evidence enough: a canary that wraps one list in eight shows in the first. */
const KEPT = 3;

/**
 * Notes every bucket list answered 2xx. A list wrapped only now and then (a canary instance, one
 * replica of several, a cache entry written by another version) shows among the hundred-odd
 * lists a run reads, not in the three RESP-3 reads itself.
 */
export function createServedBucketLists(): ServedBucketLists {
  let served = 0;
  const notArrays: Exchange[] = [];
  return {
    record(exchange, op) {
      if (op.operationId !== 'listBuckets') return;
      const { status, isJson, json } = exchange.response;
      if (status < 200 || status > 299) return;
      served++;
      if (isJson && !Array.isArray(json) && notArrays.length < KEPT) notArrays.push(exchange);
    },
    seen: () => ({ served, notArrays: [...notArrays] }),
  };
}
