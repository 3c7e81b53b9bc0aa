import { abortableSleep } from './abortableSleep.js';
import { ClientConfigError, OperationDeadlineError, OperationFailedError } from './errors.js';
import type { Redactor } from './tokenRedaction.js';

/**
 * A polled operation record. The document shows only the acceptance record (`operation_id`,
 * `vm_id`, `status`, `submitted_at`); what the status endpoint returns is not shown, so every
 * field is optional and others may appear. Pass your own type (and `parse`) when you know it.
 */
export interface OperationRecord {
  readonly operation_id?: string;
  readonly vm_id?: string;
  readonly status?: string;
  readonly [field: string]: unknown;
}

/** Where a polled operation stands: keep polling, or its terminal state. */
export type OperationOutcome = 'pending' | 'succeeded' | 'failed';

export interface WaitForOperationOptions<TRecord = OperationRecord> {
  /**
   * Polling path template containing `{operation_id}`, e.g. `/operations/{operation_id}`.
   * Required: the API document does not show the path of the operation status endpoint.
   */
  readonly path: string;
  /** Give up after this many milliseconds with `OperationDeadlineError`. */
  readonly deadlineMs: number;
  /** Delay before the second poll; doubles after each poll. Default 500 ms. */
  readonly initialDelayMs?: number;
  /** Upper bound of one delay. Default 10 000 ms. */
  readonly maxDelayMs?: number;
  /**
   * Turns each polled JSON body into the record type, throwing if it is not one (the error is
   * passed on). Default: any JSON object, as `TRecord`.
   */
  readonly parse?: (body: unknown) => TRecord;
  /**
   * Says whether the record is terminal and how it ended. The document does not show the states
   * of an operation (NS-OPERATION-STATES); the default reads `status` with the run states it gives
   * restores and backups: `succeeded` → succeeded, `failed` or `cancelled` → failed, anything
   * else → pending. Pass your own when you know better.
   */
  readonly outcome?: (record: TRecord) => OperationOutcome;
  readonly workspaceId?: string | number;
  readonly signal?: AbortSignal;
  /** Per-poll timeout, overriding the client's `timeoutMs`. */
  readonly timeoutMs?: number;
}

export function defaultOperationOutcome(record: unknown): OperationOutcome {
  const status =
    typeof record === 'object' && record !== null ? (record as { status?: unknown }).status : undefined;
  if (status === 'succeeded') return 'succeeded';
  return status === 'failed' || status === 'cancelled' ? 'failed' : 'pending';
}

export function checkPollingPath(path: unknown): string {
  if (typeof path !== 'string' || !path.startsWith('/') || !path.includes('{operation_id}')) {
    throw new ClientConfigError(
      'waitForOperation needs `path`, a path template under the base URL containing {operation_id} ' +
        "(e.g. '/operations/{operation_id}'): the API document does not show the operation status path.",
    );
  }
  return path;
}

/** Any JSON object, unchecked beyond that: the default `parse`. */
function objectRecord<TRecord>(body: unknown): TRecord {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ClientConfigError(
      'waitForOperation: the polled answer is not a JSON object; check `path`, or pass `parse` for another shape.',
    );
  }
  return body as TRecord;
}

/**
 * Polls `poll()` with exponential backoff and jitter until `outcome` says the operation ended:
 * resolves with the record when it succeeded, throws `OperationFailedError` when it failed, and
 * `OperationDeadlineError` at the deadline. Each wait removes its abort listener when it ends.
 */
export async function pollUntilDone<TRecord>(
  operationId: string,
  options: WaitForOperationOptions<TRecord>,
  poll: () => Promise<unknown>,
  redact: Redactor,
): Promise<TRecord> {
  const { deadlineMs } = options;
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0) {
    throw new ClientConfigError('waitForOperation needs `deadlineMs`, a positive number of milliseconds.');
  }
  const parse = options.parse ?? objectRecord<TRecord>;
  const outcome = options.outcome ?? defaultOperationOutcome;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  let delayMs = options.initialDelayMs ?? 500;
  const deadline = Date.now() + deadlineMs;
  for (let polls = 1; ; polls++) {
    const record = parse(await poll());
    const state = outcome(record);
    if (state === 'succeeded') return record;
    if (state === 'failed') {
      const message = (record as { error_message?: unknown } | null)?.error_message;
      throw new OperationFailedError({
        operationId,
        record,
        errorMessage: typeof message === 'string' ? redact(message) : undefined,
      });
    }
    const wait = Math.round(delayMs / 2 + (Math.random() * delayMs) / 2);
    if (Date.now() + wait >= deadline) {
      throw new OperationDeadlineError({ operationId, deadlineMs, polls, lastRecord: record });
    }
    await abortableSleep(wait, options.signal);
    delayMs = Math.min(maxDelayMs, delayMs * 2);
  }
}
