import type { ExchangeRecorder } from '../spec/operationRoutes.js';
import { type Exchange, headerValue } from '../transport/exchange.js';
import { type AcceptanceIds, acceptanceIds } from './acceptanceRecord.js';

/** A create the run saw accepted with an X-Idempotency-Key: the request a client would send again. */
export interface KeyedAcceptance {
  readonly exchange: Exchange;
  readonly key: string;
  readonly ids: AcceptanceIds;
  /** When the answer was seen (ms since the epoch). */
  readonly answeredAt: number;
}

export interface KeyedCreateLog extends ExchangeRecorder {
  /** The first acceptance of each distinct keyed create, oldest first. */
  acceptances(): readonly KeyedAcceptance[];
}

/** Enough to find one old enough with others after it; older ones only cost memory. */
const KEPT = 200;

/**
 * Every keyed create the run saw accepted, once per request (a retry or an overlapping copy of it
 * is not a new one): a late retry of one of them, with other keyed creates in between, is what a
 * client does after a network failure.
 */
export function createKeyedCreateLog(now: () => number = Date.now): KeyedCreateLog {
  const kept: KeyedAcceptance[] = [];
  const seen = new Set<string>();
  return {
    record(exchange, op) {
      if (op.operationId !== 'createCloudVm') return;
      const key = headerValue(exchange.request.headers, 'x-idempotency-key');
      const ids = acceptanceIds(exchange);
      if (key === undefined || !ids || exchange.response.status !== 202) return;
      const { request } = exchange;
      const identity = JSON.stringify([
        key,
        request.path,
        request.encodedQuery ?? request.query,
        request.body,
      ]);
      if (seen.has(identity)) return;
      seen.add(identity);
      kept.push({ exchange, key, ids, answeredAt: now() });
      if (kept.length > KEPT) kept.shift();
    },
    acceptances: () => [...kept],
  };
}

/** When a late retry is judged, and what it demands of the target. */
export interface LateRetryWindow {
  /** A retry comes at the earliest this long after the answer (a client's request timeout). */
  readonly horizonMs: number;
  /** And is never demanded later than this after the answer. */
  readonly capMs: number;
  /** Other keys accepted between the answer and the retry. */
  readonly between: number;
}

/**
 * The acceptance a late retry resends: the oldest one answered at most `capMs` ago with at least
 * `between` other keys accepted after it (chosen by order, so runs alike choose alike); the caller
 * waits until it is `horizonMs` old. Undefined when none has enough after it.
 */
export function lateRetryCandidate(
  acceptances: readonly KeyedAcceptance[],
  window: LateRetryWindow,
  at: number,
): KeyedAcceptance | undefined {
  return acceptances.find(
    (acceptance, index) =>
      at - acceptance.answeredAt <= window.capMs && otherKeysAfter(acceptances, index) >= window.between,
  );
}

/** How many other keys were accepted after the one at `index` (its own key again is not another). */
export function otherKeysAfter(acceptances: readonly KeyedAcceptance[], index: number): number {
  const keys = new Set(acceptances.slice(index + 1).map((later) => later.key));
  keys.delete(acceptances[index]?.key ?? '');
  return keys.size;
}
