import type { ApiRequest, ApiResponse, Exchange } from './exchange.js';
import { TransportError } from './exchange.js';

export interface TargetHttpOptions {
  readonly baseUrl: string;
  readonly requestTimeoutMs: number;
  readonly rateLimitPerSecond?: number;
  /** Absolute time (ms since epoch) after which nothing more is sent. */
  readonly deadlineAt?: number;
  readonly fetch?: typeof fetch;
  /** After this many timeouts, later requests fail at once instead of waiting again. */
  readonly timeoutBreaker?: number;
}

export interface TargetHttp {
  send(request: ApiRequest): Promise<Exchange>;
  /** Every exchange since the last `drain()`, for failure reports. */
  drain(): Exchange[];
  readonly stats: { requests: number; timeouts: number };
  readonly origin: string;
}

const MAX_RETRY_AFTER_MS = 30_000;

function retryAfterMs(value: string | undefined): number {
  if (!value) return 1000;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - Date.now());
}

function describeTransportFailure(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError')
    return `no complete answer within ${timeoutMs} ms (timeout; the connection may hang)`;
  const code = err.cause?.code ?? err.code;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset by the server';
  if (code === 'ECONNREFUSED') return 'connection refused (is the target running?)';
  return `${code ?? err.name ?? 'error'}: ${err.cause?.message ?? (error as Error).message}`;
}

/**
 * The only way the suite talks to a target. Sends only to the profile's origin (so tokens never
 * leave it), bounds every request in time, spaces requests to the profile's rate limit and
 * honours `429 Retry-After`.
 */
export function createTargetHttp(options: TargetHttpOptions): TargetHttp {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  const doFetch = options.fetch ?? fetch;
  const interval = options.rateLimitPerSecond ? 1000 / options.rateLimitPerSecond : 0;
  const breaker = options.timeoutBreaker ?? 3;
  let nextSlot = 0;
  let log: Exchange[] = [];
  const stats = { requests: 0, timeouts: 0 };

  async function pace(): Promise<void> {
    if (!interval) return;
    const now = Date.now();
    const wait = nextSlot - now;
    nextSlot = Math.max(now, nextSlot) + interval;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  async function once(request: ApiRequest, url: string): Promise<ApiResponse> {
    if (options.deadlineAt && Date.now() > options.deadlineAt) {
      throw new TransportError(url, request.method, 'the run deadline has passed; request not sent');
    }
    if (stats.timeouts >= breaker) {
      throw new TransportError(
        url,
        request.method,
        `not sent: the target already timed out ${stats.timeouts} times in this run`,
      );
    }
    await pace();
    const started = performance.now();
    stats.requests++;
    try {
      const response = await doFetch(url, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        ...(request.body !== undefined ? { body: request.body } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.requestTimeoutMs),
      });
      const bodyText = await response.text();
      const headers: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        headers[key] = value;
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
        headers,
        bodyText,
        json,
        isJson,
        durationMs: performance.now() - started,
      };
    } catch (error) {
      const reason = describeTransportFailure(error, options.requestTimeoutMs);
      if (reason.includes('timeout')) stats.timeouts++;
      throw new TransportError(url, request.method, reason);
    }
  }

  return {
    origin: base.origin,
    stats,
    drain() {
      const drained = log;
      log = [];
      return drained;
    },
    async send(request) {
      const url = new URL(`${base.origin}${basePath}${request.path}`);
      for (const [name, value] of request.query) url.searchParams.append(name, value);
      if (url.origin !== base.origin)
        throw new Error(`Refusing to send a request outside the profile's origin ${base.origin}`);
      const href = url.href;
      let response = await once(request, href);
      for (let attempt = 0; response.status === 429 && attempt < 3; attempt++) {
        const wait = Math.min(retryAfterMs(response.headers['retry-after']), MAX_RETRY_AFTER_MS);
        if (options.deadlineAt && Date.now() + wait > options.deadlineAt) break;
        await new Promise((resolve) => setTimeout(resolve, wait));
        response = await once(request, href);
      }
      const exchange = { request, url: href, response };
      log.push(exchange);
      if (log.length > 50) log.shift();
      return exchange;
    },
  };
}
