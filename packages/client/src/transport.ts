import { abortableSleep } from './abortableSleep.js';
import type { BillableCreateGuard } from './billingGuard.js';
import { type CallContext, callContextOf } from './callContext.js';
import type { ClientLogger } from './clientLogger.js';
import { ClientConfigError, NetworkError, RequestTimeoutError } from './errors.js';
import { LightRequest } from './lightRequest.js';
import type { RequestRules, RuleRequest } from './requestMiddleware.js';
import { requestIdOf } from './responseInfo.js';
import { answerRetryDelayMs, backoffMs, isRetrySafe, type ResolvedRetry } from './retryPolicy.js';
import { describeThrown, type Redactor } from './tokenRedaction.js';

export type FetchFunction = (input: Request) => Promise<Response>;

interface TransportSettings {
  /** The caller's fetch; when absent the global fetch is used (and given the signal in `init`). */
  readonly fetch: FetchFunction | undefined;
  readonly retry: ResolvedRetry;
  readonly timeoutMs: number;
  readonly redact: Redactor;
  readonly log: ClientLogger | undefined;
  /** Every synchronous rule of the client, applied once per request before its first attempt. */
  readonly rules: RequestRules;
  /** The billing preflight, run once per billable create after the rules, before its first attempt. */
  readonly billableCreateGuard: BillableCreateGuard;
}

export function resolveTimeoutMs(timeoutMs: unknown, optionName = 'timeoutMs'): number {
  const resolved = timeoutMs ?? 30_000;
  if (typeof resolved !== 'number' || !Number.isFinite(resolved) || resolved <= 0) {
    throw new ClientConfigError(`\`${optionName}\` must be a positive number of milliseconds.`);
  }
  return resolved;
}

/** The statuses that may not carry a body (a Response with one cannot be constructed). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` given to openapi-fetch: the client's rules (see `requestRules`) and billing guard,
 * then attempts under a per-attempt timeout, with bounded retries (see `retryPolicy`) of requests
 * safe to repeat, each with the same URL, headers (so the same idempotency key) and body bytes.
 *
 * The timeout covers the whole answer, body included: openapi-fetch reads the body after this
 * returns, so when the request carries its call's `CallContext` the attempt's timer stays armed
 * and the call disarms it once the body is read (a stalled body aborts the read with
 * `RequestTimeoutError`); without one (a middleware replaced the Request) the body is read here,
 * under the timer, before returning.
 *
 * Cost matters here (see bench/overhead.ts): one AbortController and one timer per attempt, no
 * `AbortSignal.any`/`AbortSignal.timeout`, and exactly one real `Request` construction per
 * attempt: a `LightRequest` is sent as `fetch(url, init)`, and a real `Request` as
 * `fetch(request, { headers, signal })` or, with a buffered body, as `fetch(url, init)`. A caller's
 * own `fetch` is handed one real `Request` per attempt.
 */
export function createTransport(settings: TransportSettings): FetchFunction {
  const { retry, redact, log } = settings;
  const userFetch = settings.fetch;

  return async function transport(input: Request | LightRequest): Promise<Response> {
    const call: CallContext | undefined = callContextOf(input);
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
    const { operation, workspaceId } = settings.rules(ruled);
    const idempotencyKey = operation?.idempotencyKeyRequired
      ? (headers.get('X-Idempotency-Key') ?? undefined)
      : undefined;
    if (call !== undefined) call.idempotencyKey = idempotencyKey;
    if (operation?.billableCreate) {
      await settings.billableCreateGuard(ruled, operation, workspaceId, {
        signal: callerSignal,
        context: call,
      });
    } else if (callerSignal !== undefined) {
      // A caller abort that lands right after the call is then seen below and nothing is sent.
      await undefined;
    }
    const light = request instanceof LightRequest ? request : undefined;
    const method = request.method.toUpperCase();
    const maxAttempts = isRetrySafe(method, operation) ? retry.attempts : 1;
    // Buffer a body that may be sent again, so every attempt sends byte-identical bytes (a
    // LightRequest's body is a string already).
    const body =
      light === undefined && maxAttempts > 1 && (request as Request).body !== null
        ? await (request as Request).arrayBuffer()
        : undefined;
    const path = log ? redact(new URL(request.url).pathname) : '';
    const timeoutMs = call?.timeoutMs ?? settings.timeoutMs;

    for (let attempt = 1; ; attempt++) {
      // Aborted while the rules ran, the preflight ran, the body was read or a retry waited.
      if (callerSignal?.aborted) throw callerSignal.reason;
      const controller = new AbortController();
      let waitingFor: 'answer' | 'body' = 'answer';
      const timer = setTimeout(() => {
        controller.abort(
          new RequestTimeoutError({
            timeoutMs,
            method,
            url: redact(request.url),
            attempts: attempt,
            waitingFor,
            idempotencyKey,
          }),
        );
      }, timeoutMs);
      const onCallerAbort = callerSignal && (() => controller.abort(callerSignal.reason));
      if (onCallerAbort) callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
      const release = () => {
        clearTimeout(timer);
        if (onCallerAbort) callerSignal?.removeEventListener('abort', onCallerAbort);
      };
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
      log?.({ level: 'debug', event: 'request', message: `${method} ${path}`, method, path, attempt });

      let response: Response;
      try {
        response = userFetch
          ? await userFetch(new Request(target, init))
          : await globalThis.fetch(target, init);
      } catch (thrown) {
        release();
        // The caller's own abort is not a network failure: pass it on untouched.
        if (callerSignal?.aborted) throw callerSignal.reason;
        const timedOut = controller.signal.reason instanceof RequestTimeoutError;
        if (attempt >= maxAttempts) {
          if (timedOut) throw controller.signal.reason;
          throw new NetworkError({
            method,
            url: redact(request.url),
            attempts: attempt,
            causeDescription: describeThrown(thrown, redact),
            idempotencyKey,
          });
        }
        const delayMs = backoffMs(retry, attempt);
        const why = timedOut ? 'timed out' : 'failed without an answer';
        log?.({
          level: 'warn',
          event: 'retry',
          message: `${method} ${path} ${why}; retry ${attempt + 1} of ${maxAttempts} in ${delayMs} ms`,
          method,
          path,
          attempt,
          delayMs,
        });
        await abortableSleep(delayMs, callerSignal);
        continue;
      }

      const requestId = log ? requestIdOf(response.headers, redact) : undefined;
      if (attempt < maxAttempts && response.status >= 429) {
        const delayMs = answerRetryDelayMs(retry, attempt, response);
        if (delayMs !== undefined) {
          release();
          // Nobody reads this answer: free its connection.
          response.body?.cancel().catch(() => undefined);
          log?.({
            level: 'warn',
            event: 'retry',
            message: `${method} ${path} answered ${response.status}; retry ${attempt + 1} of ${maxAttempts} in ${delayMs} ms`,
            method,
            path,
            status: response.status,
            attempt,
            delayMs,
            ...(requestId === undefined ? {} : { requestId }),
          });
          await abortableSleep(delayMs, callerSignal);
          continue;
        }
      }
      log?.({
        level: 'debug',
        event: 'response',
        message: `${method} ${path} answered ${response.status}`,
        method,
        path,
        status: response.status,
        attempt,
        durationMs: Math.round(performance.now() - started),
        ...(requestId === undefined ? {} : { requestId }),
      });
      waitingFor = 'body';
      if (call !== undefined) {
        // openapi-fetch reads the body next; the call disarms the timer once it has.
        call.hold(
          release,
          (thrown) =>
            new NetworkError({
              method,
              url: redact(request.url),
              attempts: attempt,
              causeDescription: `the connection was lost while the body was read (${describeThrown(thrown, redact)})`,
              idempotencyKey,
            }),
        );
        return response;
      }
      try {
        const bytes = await response.arrayBuffer();
        return new Response(NULL_BODY_STATUS.has(response.status) ? null : bytes, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      } catch (thrown) {
        if (callerSignal?.aborted) throw callerSignal.reason;
        if (controller.signal.reason !== undefined) throw controller.signal.reason;
        throw new NetworkError({
          method,
          url: redact(request.url),
          attempts: attempt,
          causeDescription: `the connection was lost while the body was read (${describeThrown(thrown, redact)})`,
          idempotencyKey,
        });
      } finally {
        release();
      }
    }
  };
}
