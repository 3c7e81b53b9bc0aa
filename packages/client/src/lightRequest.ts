import { CALL_CONTEXT, CallContext } from './callContext.js';

/** The RequestInit keys openapi-fetch sets for the client's own calls (see `LightRequest`). */
const PLAIN_INIT_KEYS = new Set(['method', 'headers', 'body', 'redirect', 'signal', CALL_CONTEXT]);
const PLAIN_METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']);
const REDIRECT_MODES = new Set(['follow', 'error', 'manual']);

/**
 * What openapi-fetch builds for each call when no middleware will see it: it only records the
 * URL, method, headers (a real `Headers`), body and signal. A real `Request` copies all of that,
 * and `fetch` then copies it once more into its own `Request`; recording it instead leaves
 * exactly one real construction per attempt, the one inside `fetch(url, init)` (or the one
 * `Request` a caller's own `fetch` is handed).
 *
 * Only the client's transport ever receives one: while any middleware is registered, or a call
 * brings its own, the client calls through an openapi-fetch client that builds real `Request`s
 * (see `guardedApi`). Anything the cheap form does not cover (another body type, an unusual
 * method or RequestInit option) is marked not `plain`, and the transport turns it into a real
 * `Request` first, which also validates it as before.
 */
export class LightRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly redirect: RequestRedirect;
  /** The caller's signal, if the call had one. */
  readonly signal: AbortSignal | null;
  /** False when a real `Request` is needed to send (or validate) this request faithfully. */
  readonly plain: boolean;
  /** The call this request belongs to (see `CallContext`), named as openapi-fetch would copy it. */
  readonly [CALL_CONTEXT]: CallContext | undefined;
  readonly #init: RequestInit;

  constructor(input: string, init: RequestInit = {}) {
    this.#init = init;
    this.url = String(input);
    this.method = init.method ?? 'GET';
    const { headers, body, signal } = init;
    this.headers = headers instanceof Headers ? headers : new Headers(headers);
    this.body = typeof body === 'string' ? body : undefined;
    this.redirect = init.redirect ?? 'follow';
    this.signal = signal instanceof AbortSignal ? signal : null;
    const context = (init as { [CALL_CONTEXT]?: unknown })[CALL_CONTEXT];
    this[CALL_CONTEXT] = context instanceof CallContext ? context : undefined;
    let plain =
      headers instanceof Headers &&
      (body === undefined ||
        body === null ||
        (typeof body === 'string' && this.method !== 'GET' && this.method !== 'HEAD')) &&
      (signal === undefined || signal === null || signal instanceof AbortSignal) &&
      PLAIN_METHODS.has(this.method) &&
      REDIRECT_MODES.has(this.redirect);
    for (const key in init) if (!PLAIN_INIT_KEYS.has(key)) plain = false;
    this.plain = plain;
  }

  /** The real `Request` this stands for (with the headers as they are now). */
  toRequest(): Request {
    return new Request(this.url, { ...this.#init, headers: this.headers });
  }

  /**
   * The init of the one real construction, inside `fetch(url, init)`, with the attempt's signal.
   * Members equal to fetch's defaults (GET, no body, `follow`) are left out: each member given
   * is converted and validated again by fetch, on every attempt.
   */
  initWith(signal: AbortSignal): RequestInit {
    const init: RequestInit = { headers: this.headers, signal };
    if (this.method !== 'GET') init.method = this.method;
    if (this.body !== undefined) init.body = this.body;
    if (this.redirect !== 'follow') init.redirect = this.redirect;
    return init;
  }

  clone(): LightRequest {
    return new LightRequest(this.url, { ...this.#init, headers: new Headers(this.headers) });
  }

  text(): Promise<string> {
    return Promise.resolve(this.body ?? '');
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(new TextEncoder().encode(this.body ?? '').buffer as ArrayBuffer);
  }
}
