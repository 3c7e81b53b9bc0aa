import type { Agent } from 'node:http';
import { retryAfterMs as askedRetryAfterMs } from '@cloud-api/client';
import type { ApiRequest, ApiResponse, Exchange } from './exchange.js';
import { NoAnswerError, RateLimitedError, ResponseTooLargeError, TransportError } from './exchange.js';
import { createInFlightLimit } from './inFlightLimit.js';
import { createPacer } from './pacer.js';
import { flatHeaders, readCapped, wireDefects } from './responseBody.js';
import { describeTransportFailure, proxyAuthenticationRequired, type Route } from './transportFailure.js';
import { createWireClient, type WireCall, type WireTarget } from './wireClient.js';

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
  /**
   * Told of each 429 answer the transport waited out and retried, or gave up on: evidence of what
   * the target answered (the HAR, the NDJSON log), though no check reads it.
   */
  readonly onRetriedRefusal?: (exchange: Exchange) => void;
  /** Sends through this agent (a proxy's) instead of direct kept-alive connections. */
  readonly agent?: Agent;
  /** A new agent (a proxy's) for a send that asks for a connection of its own. */
  readonly freshAgent?: () => Agent;
  /** The proxy that agent goes through, named in failure messages (never with its credentials). */
  readonly proxy?: { readonly url: string; readonly variable: string };
}

/**
 * The document sets no size limit and shows no pagination, so a list (the buckets) may rightly be
 * megabytes: 64 MiB is far above any answer a correct target sends, and still bounds memory (large
 * bodies are read one at a time, see responseBody.ts). Past it, the check is inconclusive and names
 * maxResponseBytes.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** The exchanges kept for failure reports: at most 50, and beyond the latest, at most this many body bytes. */
const KEPT_EXCHANGES = 50;
const KEPT_BODY_CHARS = 4 * 1024 * 1024;

/** How one request may be sent differently from the run's others. */
export interface SendOptions {
  /**
   * Give up when no status line has come back this long after sending (a NoAnswerError), however
   * long the request timeout: the preflight's short wait for a target that accepts connections
   * and never answers.
   */
  readonly answerWithinMs?: number;
  /** Sends that leave without pacing: taken from `admitTogether`, one per send. */
  readonly admission?: Admission;
  /**
   * On a connection of its own, as a client's retry after a network failure goes: a balancer that
   * pins connections to instances may hand it to another instance than the kept-alive ones.
   */
  readonly freshConnection?: boolean;
}

/** Sends the pacer already let go as one group (`admitTogether`); each send takes one. */
export interface Admission {
  left: number;
}

export interface TargetHttp {
  send(request: ApiRequest, sendOptions?: SendOptions): Promise<Exchange>;
  /**
   * Waits until `count` requests may leave together under the profile's rate limit, and returns
   * the options that let each of the next `count` sends go unpaced; when the limit allows fewer in
   * a second, those options pace them as usual. A race check's copies, spaced by the pacer, would
   * never be in flight together.
   */
  admitTogether(count: number): Promise<SendOptions>;
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
  readonly stats: {
    requests: number;
    timeouts: number;
    /** Requests in a row still refused with 429 after their retries; any other answer resets it. */
    rateLimitedInARow: number;
    readonly pausedUntil: number;
  };
  readonly origin: string;
  /** The proxy requests go through (without its credentials) and the variable naming it; absent when direct. */
  readonly proxy?: { readonly origin: string; readonly variable: string } | undefined;
}

/** How long a request waits for its answer when the profile sets no requestTimeoutMs. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** The longest `Retry-After` the suite waits for; a target asking for more fails the check instead. */
export const MAX_RETRY_AFTER_MS = 30_000;
const MAX_RATE_LIMIT_RETRIES = 4;
/**
 * Requests in a row given up on after 429s, past which the run sends nothing more: a target that
 * refuses everything would otherwise hold every request of the run for its retries.
 */
const RATE_LIMIT_BREAKER = 3;

/** The wait a `Retry-After` value asks for (the client's reading); a second when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number {
  return askedRetryAfterMs(value ?? null, now) ?? 1000;
}

/**
 * The proxy as messages name it: scheme, host and port, never its credentials (`URL.origin` is
 * "null" for unusual schemes), and whether its URL gives any.
 */
function proxyOf(proxy: { readonly url: string; readonly variable: string }): NonNullable<Route['proxy']> {
  const parsed = new URL(proxy.url);
  return {
    origin: `${parsed.protocol}//${parsed.host}`,
    variable: proxy.variable,
    withCredentials: parsed.username !== '' || parsed.password !== '',
  };
}

/**
 * Sent unless a request names its own: some gateways refuse requests without a User-Agent or an
 * Accept, and without Accept-Encoding any content coding is acceptable (RFC 9110, 12.5.3), so a
 * server may compress what the suite reads as JSON text: identity asks for none.
 */
const DEFAULT_HEADERS = {
  'user-agent': 'cloud-api-conformance',
  accept: '*/*',
  'accept-encoding': 'identity',
} as const;

/** Statuses whose Response must be built without a body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

const STOPPED = 'not sent: the check was stopped (interrupted, past the deadline or out of time)';

/** Why a request in flight was given up, so its failure is reported in the right words. */
class Cancelled extends Error {
  constructor(readonly why: 'timeout' | 'sibling' | 'stopped') {
    super(`cancelled: ${why}`);
  }
}

interface Outgoing {
  readonly method: string;
  readonly href: string;
  readonly target: WireTarget;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /** Told of each 429 answer to this request that the transport waits out (or gives up on). */
  readonly refused?: (response: ApiResponse) => void;
}

/**
 * The only way the suite talks to a target. Sends only to the profile's origin (so tokens never
 * leave it), bounds every request in time, spaces requests to the profile's rate limit, holds the
 * concurrency bound and honours `429 Retry-After`.
 */
export function createTargetHttp(options: TargetHttpOptions): TargetHttp {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  const secure = base.protocol === 'https:';
  const hostname = base.hostname.replace(/^\[|\]$/g, '');
  const wire = createWireClient({ agent: options.agent, freshAgent: options.freshAgent });
  const route: Route = {
    address: `${base.hostname}:${base.port || (secure ? '443' : '80')}`,
    host: hostname,
    secure,
    proxy: options.proxy ? proxyOf(options.proxy) : undefined,
  };
  const pacer = createPacer(options.rateLimitPerSecond);
  const slots = createInFlightLimit(options.maxInFlight ?? 1);
  // One body past a megabyte read at a time (responseBody.ts): memory stays near one limit.
  const largeBodies = createInFlightLimit(1);
  const breaker = options.timeoutBreaker ?? 3;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const stats = {
    requests: 0,
    timeouts: 0,
    rateLimitedInARow: 0,
    get pausedUntil() {
      return pacer.pausedUntil;
    },
  };
  let lastTimeoutAt = Number.NEGATIVE_INFINITY;
  const inFlight = new Set<WireCall>();
  let log: Exchange[] = [];
  let keptChars = 0;

  /** Runs `send` holding one of the in-flight slots, whatever it sends meanwhile. */
  async function holdingSlot<T>(send: () => Promise<T>): Promise<T> {
    const waited = slots.acquire();
    if (waited) await waited;
    try {
      return await send();
    } finally {
      slots.release();
    }
  }

  async function sendNow(
    request: Outgoing,
    scope: Set<WireCall> | undefined,
    stopped: () => boolean,
    { answerWithinMs, admission, freshConnection }: SendOptions,
  ): Promise<ApiResponse> {
    const { method, href } = request;
    if (stopped()) throw new TransportError(href, method, STOPPED);
    if (options.deadlineAt && Date.now() > options.deadlineAt)
      throw new TransportError(href, method, 'the run deadline has passed; request not sent');
    if (stats.timeouts >= breaker)
      throw new TransportError(
        href,
        method,
        `not sent: the target already timed out ${stats.timeouts} times in this run`,
      );
    if (stats.rateLimitedInARow >= RATE_LIMIT_BREAKER)
      throw new RateLimitedError(
        href,
        method,
        `not sent: the last ${stats.rateLimitedInARow} requests were still refused with 429 Too Many Requests after their retries; lower rateLimitPerSecond in the profile or run when the target is less busy`,
      );
    if (admission && admission.left > 0) admission.left--;
    else {
      const paced = pacer.pace();
      if (paced) await paced;
    }
    if (stopped()) throw new TransportError(href, method, STOPPED);
    // The run deadline bounds every wait, headers and body alike: a hanging or dripping target
    // cannot hold a check past it.
    const untilDeadline = options.deadlineAt ? options.deadlineAt - Date.now() : Number.POSITIVE_INFINITY;
    if (untilDeadline <= 0)
      throw new TransportError(href, method, 'the run deadline has passed; request not sent');
    const deadlineBound = untilDeadline < options.requestTimeoutMs;
    const started = performance.now();
    stats.requests++;
    const call = wire.send(request.target, {
      method,
      headers: { ...DEFAULT_HEADERS, ...request.headers },
      body: request.body,
      freshConnection,
    });
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        call.cancel(new Cancelled('timeout'));
      },
      Math.max(1, Math.min(options.requestTimeoutMs, untilDeadline)),
    );
    // A shorter wait for the status line alone, when asked; the deadline still comes first.
    let answered = false;
    let noAnswer = false;
    const firstByteTimer =
      answerWithinMs !== undefined && answerWithinMs < Math.min(options.requestTimeoutMs, untilDeadline)
        ? setTimeout(() => {
            noAnswer = true;
            call.cancel(new Cancelled('timeout'));
          }, answerWithinMs)
        : undefined;
    inFlight.add(call);
    scope?.add(call);
    try {
      const answer = await call.answer;
      answered = true;
      clearTimeout(firstByteTimer);
      const bodyBytes = await readCapped(answer.body, maxResponseBytes, largeBodies);
      if (bodyBytes === undefined)
        return unreadBody(
          answer.status,
          flatHeaders(answer.headers),
          new ResponseTooLargeError(href, method, answer.status, maxResponseBytes),
          performance.now() - started,
          started,
        );
      const bodyText = bodyBytes.toString('utf8');
      const defects = wireDefects(bodyBytes, answer.body.rawHeaders ?? []);
      // Only where no body may be (a stray line end after a body is a quirk clients skip).
      const after = NULL_BODY_STATUSES.has(answer.status) ? answer.bytesAfterAnswer() : undefined;
      if (after !== undefined)
        defects.push(
          `bytes came after the answer where HTTP allows none (a ${answer.status} has no body); a client reading its next answer on this connection would read them (${after})`,
        );
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
        status: answer.status,
        headers: flatHeaders(answer.headers),
        bodyText,
        json,
        isJson,
        ...(defects.length > 0 ? { wireDefects: defects } : {}),
        durationMs: performance.now() - started,
        startedAt: started,
      };
    } catch (error) {
      if (error instanceof ResponseTooLargeError) throw error;
      // No status line within the wait asked for (or within the request timeout, when that is
      // shorter): said as such, and not one of the run's timeouts.
      if (noAnswer) throw new NoAnswerError(href, method, answerWithinMs as number);
      if (timedOut && !deadlineBound && answerWithinMs !== undefined && !answered)
        throw new NoAnswerError(href, method, options.requestTimeoutMs);
      if (!timedOut && error instanceof Cancelled) {
        if (error.why === 'stopped') throw new TransportError(href, method, STOPPED);
        throw new TransportError(href, method, 'abandoned: another request of the same check got no answer');
      }
      const failure = timedOut ? undefined : describeTransportFailure(error, route);
      const reason = timedOut
        ? deadlineBound
          ? 'the run deadline (--deadline) passed while waiting for the answer (deadline)'
          : `no complete answer within ${options.requestTimeoutMs} ms (timeout; the connection may hang)`
        : (failure?.reason ?? '');
      // Timeouts of requests that were in flight together cost one wait, not several: only a
      // request sent after the last counted timeout counts again.
      if (timedOut && started >= lastTimeoutAt) {
        stats.timeouts++;
        lastTimeoutAt = performance.now();
      }
      throw new TransportError(
        href,
        method,
        reason,
        failure?.unreachable === true,
        failure?.dropped === true,
      );
    } finally {
      clearTimeout(timer);
      clearTimeout(firstByteTimer);
      inFlight.delete(call);
      scope?.delete(call);
    }
  }

  /**
   * One request, retried after each `429` as long as the wait is reasonable and fits the deadline.
   * The retries keep the request's in-flight slot: after a 429 the run sends one request at a
   * time, so no request waiting for a slot goes out between a refused request and its retry and
   * takes the allowance the retry waited for (a limit per workspace and operation of one a second).
   */
  function deliver(
    request: Outgoing,
    scope: Set<WireCall> | undefined,
    stopped: () => boolean,
    sendOptions: SendOptions = {},
  ): Promise<ApiResponse> {
    return holdingSlot(() => deliverHoldingSlot(request, scope, stopped, sendOptions));
  }

  async function deliverHoldingSlot(
    request: Outgoing,
    scope: Set<WireCall> | undefined,
    stopped: () => boolean,
    sendOptions: SendOptions,
  ): Promise<ApiResponse> {
    const { method, href } = request;
    const response = await sendNow(request, scope, stopped, sendOptions);
    // Only a proxy sends 407 (the API has no such answer): whatever a check expected, the target
    // never saw this request, so it is no answer of the target's.
    if (response.status === 407)
      throw new TransportError(href, method, proxyAuthenticationRequired(route), true);
    if (response.status !== 429) {
      stats.rateLimitedInARow = 0;
      return response;
    }
    // Requests refused together (sent before the first 429 lowered the bound) retry one after
    // another, each until it is through: retried together, they would keep taking each other's turn.
    const turn = retryTurn
      .then(() => retried(request, scope, stopped, sendOptions, response))
      .then(
        (answer) => {
          stats.rateLimitedInARow = 0;
          return answer;
        },
        (error: unknown) => {
          if (error instanceof RateLimitedError) stats.rateLimitedInARow++;
          throw error;
        },
      );
    retryTurn = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** Whose turn it is to retry after a 429: one refused request at a time. */
  let retryTurn: Promise<void> = Promise.resolve();

  async function retried(
    request: Outgoing,
    scope: Set<WireCall> | undefined,
    stopped: () => boolean,
    sendOptions: SendOptions,
    refused: ApiResponse,
  ): Promise<ApiResponse> {
    const { method, href } = request;
    let response = refused;
    for (let retries = 0; response.status === 429; retries++) {
      request.refused?.(response);
      // The target is at its limit: from now on the run sends one request at a time.
      slots.lowerTo(1);
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
      pacer.pauseUntil(Date.now() + wait);
      // A retry is paced like any other send.
      response = await sendNow(request, scope, stopped, { ...sendOptions, admission: { left: 0 } });
    }
    return response;
  }

  function outgoing(
    url: URL,
    method: string,
    headers: Readonly<Record<string, string>>,
    body?: string,
  ): Outgoing {
    if (url.origin !== base.origin)
      throw new Error(`Refusing to send a request outside the profile's origin ${base.origin}`);
    return {
      method,
      href: url.href,
      target: { secure, hostname, port: base.port, path: `${url.pathname}${url.search}` },
      headers,
      body,
    };
  }

  function remember(exchange: Exchange): void {
    options.onExchange?.(exchange);
    log.push(exchange);
    keptChars += exchange.response.bodyText.length;
    // Large answers are kept only while they are recent: fifty 64 MiB bodies would be gigabytes.
    while (log.length > KEPT_EXCHANGES || (log.length > 1 && keptChars > KEPT_BODY_CHARS)) {
      keptChars -= log.shift()?.response.bodyText.length ?? 0;
    }
  }

  /** Hands the 429s a request waited out to `onRetriedRefusal`, as exchanges of that request. */
  const refusalsOf =
    (request: ApiRequest, url: string) =>
    (response: ApiResponse): void =>
      options.onRetriedRefusal?.({ request, url, response });

  async function send(
    request: ApiRequest,
    scope: Set<WireCall> | undefined,
    stopped: () => boolean,
    sendOptions: SendOptions = {},
  ) {
    const url = new URL(`${base.origin}${basePath}${request.path}`);
    if (request.encodedQuery !== undefined) url.search = request.encodedQuery;
    // Percent-encoded, never form-encoded: a space as `+` reads as a plus sign to a server that
    // decodes the query as RFC 3986 says, so ` 1042` would arrive as `+1042`.
    else if (request.query.length > 0)
      url.search = request.query
        .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
        .join('&');
    const resolved = outgoing(url, request.method, request.headers, request.body);
    const raw = `${basePath}${request.path}${url.search}`;
    const out = request.rawPath
      ? { ...resolved, href: `${base.origin}${raw}`, target: { ...resolved.target, path: raw } }
      : resolved;
    const response = await deliver(
      { ...out, refused: refusalsOf(request, out.href) },
      scope,
      stopped,
      sendOptions,
    );
    const exchange = { request, url: out.href, response };
    // An unread body is shown to no recorder (coverage, the schema audit, HAR): only its status is known.
    if (!response.bodyTooLarge) remember(exchange);
    return exchange;
  }

  async function forward(input: Request, scope: Set<WireCall> | undefined, stopped: () => boolean) {
    const url = new URL(input.url);
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
      { ...outgoing(url, input.method, headers, request.body), refused: refusalsOf(request, url.href) },
      scope,
      stopped,
    );
    // The client needs the body: an unread one fails the call as it always did.
    if (response.bodyTooLarge) void response.bodyText;
    remember({ request, url: url.href, response });
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.bodyText, {
      status: response.status,
      headers: response.headers,
    });
  }

  const never = (): boolean => false;
  function view(scope: Set<WireCall> | undefined, stopped: () => boolean): TargetHttp {
    return {
      origin: base.origin,
      proxy: route.proxy ? { origin: route.proxy.origin, variable: route.proxy.variable } : undefined,
      stats,
      cancelInFlight() {
        for (const call of inFlight) call.cancel(new Cancelled('sibling'));
      },
      drain() {
        const drained = log;
        log = [];
        keptChars = 0;
        return drained;
      },
      send: (request, sendOptions) => send(request, scope, stopped, sendOptions),
      async admitTogether(count) {
        return (await pacer.paceTogether(count)) ? { admission: { left: count } } : {};
      },
      forward: (input) => forward(input, scope, stopped),
      scoped(signal) {
        const calls = new Set<WireCall>();
        signal.addEventListener(
          'abort',
          () => {
            for (const call of calls) call.cancel(new Cancelled('stopped'));
          },
          { once: true },
        );
        return view(calls, () => signal.aborted);
      },
    };
  }

  return view(undefined, never);
}

/** An answer whose body was not read: its status and headers, and the error any read of the body throws. */
function unreadBody(
  status: number,
  headers: Readonly<Record<string, string>>,
  tooLarge: ResponseTooLargeError,
  durationMs: number,
  startedAt: number,
): ApiResponse {
  const unread = (): never => {
    throw tooLarge;
  };
  return {
    status,
    headers,
    bodyTooLarge: true,
    durationMs,
    startedAt,
    get bodyText(): string {
      return unread();
    },
    get json(): unknown {
      return unread();
    },
    get isJson(): boolean {
      return unread();
    },
  };
}
