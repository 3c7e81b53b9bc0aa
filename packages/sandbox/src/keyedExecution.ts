import { rememberAnswer, replayFor } from './idempotency.js';
import {
  afterResult,
  errorResult,
  jsonResult,
  type OperationResult,
  type PendingResult,
} from './operationResult.js';
import type { SandboxBehaviour } from './sandboxBehaviour.js';
import type { SandboxStore } from './sandboxStore.js';
import { storeRoundTrip } from './storeRoundTrip.js';

/** The answers-expire fault: a TTL of a second, shorter than a client's request timeout. */
const EXPIRES_AFTER_MS = 1_000;
/** The answers-lru fault: a cache that holds the latest keys only. */
const LRU_KEPT = 2;

function forgetOlderThan(store: SandboxStore, ms: number): void {
  const now = Date.now();
  for (const [key, answer] of store.idempotentAnswers)
    if (now - answer.storedAt > ms) store.idempotentAnswers.delete(key);
}

function forgetAllBut(store: SandboxStore, kept: number): void {
  for (const key of [...store.idempotentAnswers.keys()].slice(0, -kept)) store.idempotentAnswers.delete(key);
}

/** Runs a request that carries an X-Idempotency-Key: `act` at most once per key and request. */
export type KeyedExecution = (key: string, fingerprint: string, act: () => PendingResult) => PendingResult;

/**
 * The stored answer for a key is replayed; otherwise the request runs and a success is stored.
 * With a store round trip (the concurrency variants) a copy that arrives while the first is
 * processed must not run again: one variant refuses it with 409, the other waits for the first's
 * answer. The check-then-act fault looks the key up before the round trip and stores after it,
 * so such a copy runs too.
 */
export function createKeyedExecution(store: SandboxStore, behaviour: SandboxBehaviour): KeyedExecution {
  const inFlight = new Map<string, Promise<OperationResult>>();
  const keyed: KeyedExecution = (key, fingerprint, act) => {
    const remembered = (answer: OperationResult): OperationResult => {
      rememberAnswer(store, key, fingerprint, answer);
      if (behaviour.fault === 'idempotency-answers-lru') forgetAllBut(store, LRU_KEPT);
      return answer;
    };
    if (behaviour.fault === 'idempotency-answers-expire') forgetOlderThan(store, EXPIRES_AFTER_MS);
    if (behaviour.fault !== 'ignore-idempotency-key') {
      const replay = replayFor(store, key, fingerprint);
      if (replay)
        return behaviour.variant === 'retry-reports-current-status' ? currentStatus(replay) : replay;
    }
    if (behaviour.fault === 'idempotency-check-then-act')
      return storeRoundTrip().then(() => afterResult(act(), remembered));
    if (behaviour.fault === 'idempotency-placeholder-replayed') {
      // The key's row is inserted with a placeholder answer before the work runs; a copy that
      // arrives meanwhile is replayed the placeholder.
      if (inFlight.has(key))
        return jsonResult(202, { operation_id: null, vm_id: null, status: 'pending', submitted_at: null });
      const running = storeRoundTrip()
        .then(() => afterResult(act(), remembered))
        .finally(() => inFlight.delete(key));
      inFlight.set(key, running);
      return running;
    }
    const variant = behaviour.variant;
    if (variant !== 'idempotency-in-flight-409' && variant !== 'writes-with-store-latency')
      return afterResult(act(), remembered);
    const pending = inFlight.get(key);
    if (pending) {
      if (variant === 'idempotency-in-flight-409')
        return errorResult(
          409,
          'A request with this X-Idempotency-Key is still being processed; retry once it has been answered.',
        );
      // Once the first is answered, this copy is a plain retry: replayed, or run if nothing was stored.
      return pending.then(() => keyed(key, fingerprint, act));
    }
    const running = storeRoundTrip()
      .then(() => afterResult(act(), remembered))
      .finally(() => inFlight.delete(key));
    inFlight.set(key, running);
    return running;
  };
  return keyed;
}

/**
 * The retry-reports-current-status variant: a retry is answered with the operation it started, as
 * that operation stands now (`running`), not as it was when accepted.
 */
function currentStatus(replay: OperationResult): OperationResult {
  if (replay.kind !== 'json' || replay.status !== 202) return replay;
  return { ...replay, body: { ...(replay.body as Record<string, unknown>), status: 'running' } };
}
