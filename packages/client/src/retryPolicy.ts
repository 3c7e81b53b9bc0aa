import type { ApiOperation } from '@cloud-api/types';
import { ClientConfigError } from './errors.js';

export interface RetryOptions {
  /** Total attempts per request, first one included (1 disables retries). Default 3, at most 10. */
  readonly attempts?: number;
  /** Ceiling of the first retry's delay; doubles on each further retry. Default 200 ms. */
  readonly baseDelayMs?: number;
  /** Upper bound of one backoff delay. Default 2000 ms. */
  readonly maxDelayMs?: number;
  /** Full jitter: each backoff delay is drawn uniformly from [0, ceiling]. Default true. */
  readonly jitter?: boolean;
  /**
   * The longest `Retry-After` (on 429 and 503) the client waits for. A longer one is not waited
   * out: the answer is returned as it is. Default 20 000 ms.
   */
  readonly maxRetryAfterMs?: number;
}

export type ResolvedRetry = Required<RetryOptions>;

/** `false` opts out of retries (the same as `{ attempts: 1 }`). */
export function resolveRetryOptions(retry: RetryOptions | false | undefined): ResolvedRetry {
  const given = retry === false ? { attempts: 1 } : retry;
  const resolved = {
    attempts: given?.attempts ?? 3,
    baseDelayMs: given?.baseDelayMs ?? 200,
    maxDelayMs: given?.maxDelayMs ?? 2000,
    jitter: given?.jitter ?? true,
    maxRetryAfterMs: given?.maxRetryAfterMs ?? 20_000,
  };
  if (!Number.isInteger(resolved.attempts) || resolved.attempts < 1 || resolved.attempts > 10) {
    throw new ClientConfigError('`retry.attempts` must be a whole number from 1 (no retry) to 10.');
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!Number.isFinite(resolved[key]) || resolved[key] < 0) {
      throw new ClientConfigError(`\`retry.${key}\` must be a number of milliseconds, 0 or more.`);
    }
  }
  return resolved;
}

/**
 * Requests that may be sent twice: reads (GET, HEAD), the VM operations whose
 * `X-Idempotency-Key` the API requires (a retry with the same key and bytes is safe, the document
 * says), and the billing preflight, a point-in-time read that reserves nothing. Every other write
 * is sent once, even if the caller put a key on it: the document promises replays only for VM
 * operations.
 */
export function isRetrySafe(method: string, operation: ApiOperation | undefined): boolean {
  return (
    method === 'GET' ||
    method === 'HEAD' ||
    operation?.idempotencyKeyRequired === true ||
    operation?.operationId === 'checkResourceEligibility'
  );
}

/** Answers worth another attempt: throttled, or a gateway that could not reach the service. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

/** Exponential backoff with full jitter (the AWS SDK and Stripe model): random in [0, ceiling]. */
export function backoffMs(retry: ResolvedRetry, attempt: number): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(retry.jitter ? Math.random() * ceiling : ceiling);
}

/** `Retry-After` in milliseconds (delay-seconds or an HTTP date), or undefined if absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retrying an answer with this status, or undefined when it is not to be
 * retried: a `Retry-After` on 429 or 503 is honoured up to `maxRetryAfterMs` (a longer one is not
 * waited out), otherwise the usual backoff.
 */
export function answerRetryDelayMs(
  retry: ResolvedRetry,
  attempt: number,
  response: Response,
): number | undefined {
  if (!isRetryableStatus(response.status)) return undefined;
  const asked =
    response.status === 429 || response.status === 503
      ? retryAfterMs(response.headers.get('Retry-After'))
      : undefined;
  if (asked === undefined) return backoffMs(retry, attempt);
  return asked <= retry.maxRetryAfterMs ? asked : undefined;
}
