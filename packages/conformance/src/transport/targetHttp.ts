import type { Readable } from 'node:stream';
import type { ApiRequest, ApiResponse, Exchange } from './exchange.js';
import { RateLimitedError, ResponseTooLargeError, TransportError } from './exchange.js';
import { createWireClient } from './wireClient.js';

export interface TargetHttpOptions {
  readonly baseUrl: string;
  readonly requestTimeoutMs: number;
  readonly rateLimitPerSecond?: number;
  /** Absolute time (ms since epoch) after which nothing more is sent. */
  readonly deadlineAt?: number;
  /** After this many timeouts, later requests fail at once instead of waiting again. */
  readonly timeoutBreaker?: number;
  /** Largest response body read; a larger one fails the check (default DEFAULT_MAX_RESPONSE_BYTES). */
  readonly maxResponseBytes?: number;
  /** Most requests in flight at once, whoever sends them (the run's concurrency; default 1). */
  readonly maxInFlight?: number;
  /** Told of every exchange with the target (the coverage report reads them). */
  readonly onExchange?: (exchange: Exchange) => void;
}

/** The API answers single JSON records: 1 MiB is far above any of them and keeps 50 kept exchanges small. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

export interface TargetHttp {
  send(request: ApiRequest): Promise<Exchange>;
  /**
   * Sends a request built elsewhere (the client package under test) under the same rules as
   * `send`: profile origin only, paced, bounded in time, `429 Retry-After` honoured.
   */
  forward(request: Request): Promise<Response>;
  /** Every exchange since the last `drain()`, for failure reports. */
  drain(): Exchange[];
  /**
   * Abandons every request in flight: a check whose concurrent case got no answer ends
   * incomplete anyway, and its siblings' waits would only trip the timeout breaker.
   */
  cancelInFlight(): void;
  /**
   * The same transport for one check: once `signal` aborts, its requests in flight are abandoned
   * and nothing more is sent for it (a stopped check cannot keep talking to the target).
   */
  scoped(signal: AbortSignal): TargetHttp;
  /** Requests sent, timeouts seen, and until when a 429 paused every request (ms since the epoch). */
  readonly stats: { requests: number; timeouts: number; pausedUntil: number };
  readonly origin: string;
}

/** The longest `Retry-After` the suite waits for; a target asking for more fails the check instead. */
export const MAX_RETRY_AFTER_MS = 30_000;
const MAX_RATE_LIMIT_RETRIES = 3;

/** The wait a `Retry-After` value asks for: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number {
  if (value === undefined || value.trim() === '') return 1000;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - now);
}

function describeTransportFailure(error: unknown): string {
  const err = error as { name?: string; code?: string; message?: string };
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE') return 'connection reset by the server';
  if (err.code === 'ECONNREFUSED') return 'connection refused (is the target running?)';
  return `${err.code ?? err.name ?? 'error'}: ${err.message ?? String(error)}`;
}

const STOPPED = 'not sent: the check was stopped (interrupted, past the deadline or out of time)';

/** Sent unless a request names its own: some gateways refuse requests without one. */
const USER_AGENT = 'cloud-api-conformance';

/** Statuses whose Response must be built without a body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

interface WireRequest {
  readonly method: string;
  readonly href: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
}

/**
 * Reads a body up to `limit` bytes. Past it the stream is destroyed, which drops the connection,
 * so a target sending gigabytes costs the run one limit's worth of memory.
 */
async function readCapped(
  body: Readable,
  declaredLength: string | string[] | undefined,
  limit: number,
  request: { href: string; method: string; status: number },
): Promise<string> {
  const tooLarge = () => new ResponseTooLargeError(request.href, request.method, request.status, limit);
  if (Number(declaredLength ?? 0) > limit) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > limit) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Response headers as one string each: repeated ones joined with ", " as fetch's Headers does. */
function flatHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

/**
 * How much later one request may arrive than the next without the target counting one too many:
 * a busy event loop on either side can hold one request back this long (CI machines measured up
 * to ~80 ms under load).
 */
const JITTER_ALLOWANCE_MS = 100;

/**
 * The only way the suite talks to a target. Sends only to the profile's origin (so tokens never
 * leave it), bounds every request in time, spaces requests to the profile's rate limit and
 * honours `429 Retry-After`.
 */
export function createTargetHttp(options: TargetHttpOptions): TargetHttp {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  const wire = createWireClient();
  // The target counts arrivals, not sends: requests spaced so that any rateLimitPerSecond + 1 of
  // them span JITTER_ALLOWANCE_MS more than a second still arrive within the limit when the
  // network or a busy event loop delays one by up to that much.
  const interval = options.rateLimitPerSecond ? (1000 + JITTER_ALLOWANCE_MS) / options.rateLimitPerSecond : 0;
  const breaker = options.timeoutBreaker ?? 3;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  let nextSlot = 0;
  // When the last `rateLimitPerSecond` requests really left: spacing alone lets a late send and an
  // on-time one bunch up, the window does not.
  const recentSends: number[] = [];
  const windowLimit = options.rateLimitPerSecond ? Math.max(1, Math.floor(options.rateLimitPerSecond)) : 0;
  // After a 429 every request waits, not only the one that was refused: the target asked the client to slow down.
  const stats = { requests: 0, timeouts: 0, pausedUntil: 0 };
  let lastTimeoutAt = Number.NEGATIVE_INFINITY;
  const inFlight = new Set<AbortController>();
  let log: Exchange[] = [];

  // Concurrent sends take their slots one after another: two waiters woken together must not
  // both see the window free.
  let paceQueue: Promise<void> = Promise.resolve();
  function pace(): Promise<void> {
    const turn = paceQueue.then(paceOne);
    paceQueue = turn.catch(() => undefined);
    return turn;
  }

  async function paceOne(): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, nextSlot, stats.pausedUntil);
    if (interval) nextSlot = slot + interval;
    // A timer may fire a millisecond early by the wall clock: wait until the slot has really come.
    while (Date.now() < slot) await new Promise((resolve) => setTimeout(resolve, slot - Date.now()));
    if (!windowLimit) return;
    for (;;) {
      const oldest =
        recentSends.length >= windowLimit ? (recentSends[recentSends.length - windowLimit] as number) : 0;
      const free = oldest + 1000 + JITTER_ALLOWANCE_MS;
      if (Date.now() >= free) break;
      await new Promise((resolve) => setTimeout(resolve, free - Date.now()));
    }
    recentSends.push(Date.now());
    if (recentSends.length > windowLimit) recentSends.splice(0, recentSends.length - windowLimit);
  }

  // The concurrency bound holds at the wire, whatever a check awaits together. A freed slot goes
  // to the next waiter at once, so no newcomer slips in; after a 429 the bound drops to 1.
  let maxInFlight = Math.max(1, options.maxInFlight ?? 1);
  let active = 0;
  const waiting: (() => void)[] = [];
  async function acquireSlot(): Promise<void> {
    if (active < maxInFlight && waiting.length === 0) {
      active++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  function releaseSlot(): void {
    active--;
    while (active < maxInFlight && waiting.length > 0) {
      active++;
      waiting.shift()?.();
    }
  }

  async function once(request: WireRequest, scope: AbortSignal | undefined): Promise<ApiResponse> {
    await acquireSlot();
    try {
      return await sendNow(request, scope);
    } finally {
      releaseSlot();
    }
  }

  async function sendNow(request: WireRequest, scope: AbortSignal | undefined): Promise<ApiResponse> {
    const { method, href } = request;
    if (scope?.aborted) throw new TransportError(href, method, STOPPED);
    if (options.deadlineAt && Date.now() > options.deadlineAt) {
      throw new TransportError(href, method, 'the run deadline has passed; request not sent');
    }
    if (stats.timeouts >= breaker) {
      throw new TransportError(
        href,
        method,
        `not sent: the target already timed out ${stats.timeouts} times in this run`,
      );
    }
    await pace();
    if (scope?.aborted) throw new TransportError(href, method, STOPPED);
    // The run deadline bounds every wait, headers and body alike: a hanging or dripping target
    // cannot hold a check past it.
    const untilDeadline = options.deadlineAt ? options.deadlineAt - Date.now() : Number.POSITIVE_INFINITY;
    if (untilDeadline <= 0)
      throw new TransportError(href, method, 'the run deadline has passed; request not sent');
    const deadlineBound = untilDeadline < options.requestTimeoutMs;
    const started = performance.now();
    stats.requests++;
    const cancel = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        cancel.abort();
      },
      Math.max(1, Math.min(options.requestTimeoutMs, untilDeadline)),
    );
    inFlight.add(cancel);
    const abandon = (): void => cancel.abort();
    scope?.addEventListener('abort', abandon, { once: true });
    try {
      const response = await wire.send(href, {
        method,
        headers: { 'user-agent': USER_AGENT, accept: '*/*', ...request.headers },
        body: request.body,
        signal: cancel.signal,
      });
      const bodyText = await readCapped(response.body, response.headers['content-length'], maxResponseBytes, {
        href,
        method,
        status: response.status,
      });
      let json: unknown;
      let isJson = false;
      if (bodyText.length > 0) {
        try {
          json = JSON.parse(bodyText);
          isJson = true;
        } catch {
          json = undefined;
        }
      }
      return {
        status: response.status,
        headers: flatHeaders(response.headers),
        bodyText,
        json,
        isJson,
        durationMs: performance.now() - started,
      };
    } catch (error) {
      if (error instanceof ResponseTooLargeError) throw error;
      if (scope?.aborted && !timedOut) throw new TransportError(href, method, STOPPED);
      if (cancel.signal.aborted && !timedOut)
        throw new TransportError(href, method, 'abandoned: another request of the same check got no answer');
      const reason = timedOut
        ? deadlineBound
          ? 'the run deadline (--deadline) passed while waiting for the answer (deadline)'
          : `no complete answer within ${options.requestTimeoutMs} ms (timeout; the connection may hang)`
        : describeTransportFailure(error);
      // Timeouts of requests that were in flight together cost one wait, not several: only a
      // request sent after the last counted timeout counts again.
      if (timedOut && started >= lastTimeoutAt) {
        stats.timeouts++;
        lastTimeoutAt = performance.now();
      }
      throw new TransportError(href, method, reason);
    } finally {
      clearTimeout(timer);
      inFlight.delete(cancel);
      scope?.removeEventListener('abort', abandon);
    }
  }

  /** One request, retried after each `429` as long as the wait is reasonable and fits the deadline. */
  async function deliver(request: WireRequest, scope: AbortSignal | undefined): Promise<ApiResponse> {
    const { method, href } = request;
    let response = await once(request, scope);
    for (let retries = 0; response.status === 429; retries++) {
      // The target is at its limit: from now on the run sends one request at a time.
      maxInFlight = 1;
      const header = response.headers['retry-after'];
      const asked = header === undefined ? 'without Retry-After' : `with Retry-After: ${header}`;
      const wait = retryAfterMs(header);
      if (retries >= MAX_RATE_LIMIT_RETRIES)
        throw new RateLimitedError(
          href,
          method,
          `still answered 429 Too Many Requests (${asked}) after ${retries} retries; lower rateLimitPerSecond in the profile`,
        );
      if (wait > MAX_RETRY_AFTER_MS)
        throw new RateLimitedError(
          href,
          method,
          `answered 429 Too Many Requests ${asked} (${Math.round(wait / 1000)} s); the suite waits at most ${MAX_RETRY_AFTER_MS / 1000} s, so it did not retry. Lower rateLimitPerSecond in the profile or run when the target is less busy`,
        );
      if (options.deadlineAt && Date.now() + wait > options.deadlineAt)
        throw new RateLimitedError(
          href,
          method,
          `answered 429 Too Many Requests ${asked}; waiting that long would pass the run deadline (--deadline), so it did not retry`,
        );
      stats.pausedUntil = Math.max(stats.pausedUntil, Date.now() + wait);
      response = await once(request, scope);
    }
    return response;
  }

  function checkOrigin(url: URL): void {
    if (url.origin !== base.origin)
      throw new Error(`Refusing to send a request outside the profile's origin ${base.origin}`);
  }

  function remember(exchange: Exchange): void {
    options.onExchange?.(exchange);
    log.push(exchange);
    if (log.length > 50) log.shift();
  }

  async function send(request: ApiRequest, scope: AbortSignal | undefined): Promise<Exchange> {
    const url = new URL(`${base.origin}${basePath}${request.path}`);
    for (const [name, value] of request.query) url.searchParams.append(name, value);
    checkOrigin(url);
    const href = url.href;
    const response = await deliver(
      { method: request.method, href, headers: request.headers, body: request.body },
      scope,
    );
    const exchange = { request, url: href, response };
    remember(exchange);
    return exchange;
  }

  async function forward(input: Request, scope: AbortSignal | undefined): Promise<Response> {
    const url = new URL(input.url);
    checkOrigin(url);
    const headers: Record<string, string> = {};
    input.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const body = input.method === 'GET' || input.method === 'HEAD' ? undefined : await input.text();
    const request: ApiRequest = {
      method: input.method,
      path: url.pathname.slice(basePath.length),
      query: [...url.searchParams],
      headers,
      ...(body ? { body } : {}),
    };
    const response = await deliver(
      { method: input.method, href: url.href, headers, body: request.body },
      scope,
    );
    remember({ request, url: url.href, response });
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.bodyText, {
      status: response.status,
      headers: response.headers,
    });
  }

  function view(scope: AbortSignal | undefined): TargetHttp {
    return {
      origin: base.origin,
      stats,
      cancelInFlight() {
        for (const cancel of inFlight) cancel.abort();
      },
      drain() {
        const drained = log;
        log = [];
        return drained;
      },
      send: (request) => send(request, scope),
      forward: (input) => forward(input, scope),
      scoped: (signal) => view(signal),
    };
  }

  return view(undefined);
}
