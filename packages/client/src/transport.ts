import type { ClientLogger } from './clientLogger.js';
import { ClientConfigError, NetworkError, TimeoutError } from './errors.js';
import { LightRequest } from './lightRequest.js';
import type { RequestRules, RuleRequest } from './requestMiddleware.js';
import { describeThrown, type Redactor } from './tokenRedaction.js';

export interface RetryOptions {
  /** Total attempts per request, first one included (1 disables retries). Default 3. */
  readonly attempts?: number;
  /** Delay before the first retry; doubles on each further retry. Default 200 ms. */
  readonly baseDelayMs?: number;
  /** Upper bound of one delay. Default 2000 ms. */
  readonly maxDelayMs?: number;
  /** Full jitter: each delay is drawn uniformly from [0, delay]. Default true. */
  readonly jitter?: boolean;
}

export type FetchFunction = (input: Request) => Promise<Response>;

interface TransportSettings {
  /** The caller's fetch; when absent the global fetch is used (and given the signal in `init`). */
  readonly fetch: FetchFunction | undefined;
  readonly retry: Required<RetryOptions>;
  readonly timeoutMs: number;
  readonly redact: Redactor;
  readonly log: ClientLogger | undefined;
  /** Every rule of the client, applied once per request before its first attempt. */
  readonly rules: RequestRules;
}

export function resolveRetryOptions(retry: RetryOptions | undefined): Required<RetryOptions> {
  const resolved = {
    attempts: retry?.attempts ?? 3,
    baseDelayMs: retry?.baseDelayMs ?? 200,
    maxDelayMs: retry?.maxDelayMs ?? 2000,
    jitter: retry?.jitter ?? true,
  };
  if (!Number.isInteger(resolved.attempts) || resolved.attempts < 1 || resolved.attempts > 10) {
    throw new ClientConfigError('`retry.attempts` must be a whole number from 1 (no retry) to 10.');
  }
  for (const key of ['baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(resolved[key]) || resolved[key] < 0) {
      throw new ClientConfigError(`\`retry.${key}\` must be a number of milliseconds, 0 or more.`);
    }
  }
  return resolved;
}

export function resolveTimeoutMs(timeoutMs: number | undefined): number {
  const resolved = timeoutMs ?? 30_000;
  if (!Number.isFinite(resolved) || resolved <= 0) {
    throw new ClientConfigError('`timeoutMs` must be a positive number of milliseconds.');
  }
  return resolved;
}

/**
 * Requests that may be sent twice: safe reads, and requests carrying an idempotency key (the
 * API promises a retry with the same key after a network failure is safe). Every other write is
 * sent once.
 */
function isRetrySafe(method: string, headers: Headers): boolean {
  return method === 'GET' || method === 'HEAD' || headers.has('X-Idempotency-Key');
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The `fetch` given to openapi-fetch: the client's rules (see `requestRules`), then a per-attempt
 * timeout (AbortSignal) and bounded retries on network failure only. An HTTP answer, whatever
 * its status, is never retried. Each attempt gets the same URL, headers (so the same idempotency
 * key) and the same body bytes.
 *
 * Cost matters here (see bench/overhead.ts): one AbortController and one timer per attempt, no
 * `AbortSignal.any`/`AbortSignal.timeout`, and exactly one real `Request` construction per
 * attempt: a `LightRequest` is sent as `fetch(url, init)`, and a real `Request` as
 * `fetch(request, { signal })` or, with a buffered body, as `fetch(url, init)`. A caller's own
 * `fetch` is handed one real `Request` per attempt. The timer covers each attempt until the
 * response headers arrive; the body is then read under the fetch implementation's own limits.
 */
export function createTransport(settings: TransportSettings): FetchFunction {
  const { retry, timeoutMs, redact, log } = settings;
  const userFetch = settings.fetch;

  return async function transport(input: Request | LightRequest): Promise<Response> {
    // A request the cheap form cannot send faithfully becomes a real Request (validated as one).
    const request = input instanceof LightRequest && !input.plain ? input.toRequest() : input;
    const callerSignal = request.signal ?? undefined;
    // openapi-fetch hands the very Request it gave us to every onResponse/onError middleware, so
    // the rules must not write the token into it: they write into a copy of its headers, which
    // only the wire sees. A LightRequest (or a Request made from one) never reaches a middleware.
    const headers =
      request === input && !(request instanceof LightRequest)
        ? new Headers(request.headers)
        : request.headers;
    const ruled: RuleRequest =
      headers === request.headers
        ? request
        : { url: request.url, method: request.method, headers, clone: () => request.clone() };
    const guarded = settings.rules(ruled);
    // Awaited also when only synchronous rules ran and the caller has a signal: a caller abort
    // that lands right after the call is then seen below and nothing is sent.
    if (guarded !== undefined || callerSignal !== undefined) await guarded;
    const light = request instanceof LightRequest ? request : undefined;
    const maxAttempts = isRetrySafe(request.method, headers) ? retry.attempts : 1;
    // Buffer a body that may be sent again, so every attempt sends byte-identical bytes (a
    // LightRequest's body is a string already).
    const body =
      light === undefined && maxAttempts > 1 && (request as Request).body !== null
        ? await (request as Request).arrayBuffer()
        : undefined;
    const path = log ? new URL(request.url).pathname : '';

    for (let attempt = 1; ; attempt++) {
      // Aborted while the rules ran or the body was read: nothing is sent.
      if (callerSignal?.aborted) throw callerSignal.reason;
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
      }, timeoutMs);
      const onCallerAbort = callerSignal && (() => controller.abort(callerSignal.reason));
      if (onCallerAbort) callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
      // fetch builds its own Request from (input, init), so a LightRequest and a buffered body
      // are handed over as init rather than as one more Request of our own.
      const target = light === undefined && body === undefined ? (request as Request) : request.url;
      const init: RequestInit =
        light !== undefined
          ? light.initWith(controller.signal)
          : body === undefined
            ? { headers, signal: controller.signal }
            : {
                method: request.method,
                headers,
                body,
                redirect: request.redirect,
                signal: controller.signal,
              };
      const started = log ? performance.now() : 0;
      log?.({
        level: 'debug',
        event: 'request',
        message: `${request.method} ${path}`,
        method: request.method,
        path,
        attempt,
      });
      try {
        const response = userFetch
          ? await userFetch(new Request(target, init))
          : await globalThis.fetch(target, init);
        log?.({
          level: 'debug',
          event: 'response',
          message: `${request.method} ${path} answered ${response.status}`,
          method: request.method,
          path,
          status: response.status,
          attempt,
          durationMs: Math.round(performance.now() - started),
        });
        return response;
      } catch (thrown) {
        // The caller's own abort is not a network failure: pass it on untouched.
        if (callerSignal?.aborted) throw callerSignal.reason;
        if (attempt >= maxAttempts) {
          if (timedOut)
            throw new TimeoutError({
              timeoutMs,
              method: request.method,
              url: redact(request.url),
              attempts: attempt,
            });
          throw new NetworkError({
            method: request.method,
            url: redact(request.url),
            attempts: attempt,
            causeDescription: describeThrown(thrown, redact),
          });
        }
        const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
        const delayMs = Math.round(retry.jitter ? Math.random() * ceiling : ceiling);
        log?.({
          level: 'warn',
          event: 'retry',
          message: `${request.method} ${path} ${timedOut ? 'timed out' : 'failed without an answer'}; retry ${attempt + 1} of ${maxAttempts} in ${delayMs} ms`,
          method: request.method,
          path,
          attempt,
          delayMs,
        });
        await sleep(delayMs, callerSignal ?? null);
      } finally {
        clearTimeout(timer);
        if (onCallerAbort) callerSignal?.removeEventListener('abort', onCallerAbort);
      }
    }
  };
}
