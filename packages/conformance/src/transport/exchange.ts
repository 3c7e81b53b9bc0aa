/** One request the suite sends, relative to the profile's base URL. */
export interface ApiRequest {
  readonly method: string;
  /** Path below the base URL, already encoded, e.g. `/compute/gpu-vms/vm-1/backups/enable`. */
  readonly path: string;
  /** Query parameters in order; a parameter left out is absent from the URL. */
  readonly query: readonly (readonly [string, string])[];
  /**
   * The query exactly as it goes on the wire (no `?`), for forms the suite spells itself
   * (percent-encoded digits, a parameter given twice); `query` then only describes it.
   */
  readonly encodedQuery?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Raw body text (already serialized); absent for no body. */
  readonly body?: string;
  /**
   * Send `path` exactly as written, dot segments (`/compute/../networking/…`) included: a URL
   * parser resolves them, and a gateway that routes by the raw path never sees what the service
   * behind it serves.
   */
  readonly rawPath?: true;
}

/** A header by its name in lower case, however the message spelled it (header names are case-insensitive). */
export function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string;
  /** The parsed body when it is JSON; `undefined` when empty or not JSON. */
  readonly json: unknown;
  readonly isJson: boolean;
  /**
   * The body was larger than maxResponseBytes and was not read: the status and headers stand, and
   * reading the body (bodyText, json, isJson) throws the ResponseTooLargeError, which makes the
   * check that needed it inconclusive. A status that breaks a rule still fails it.
   */
  readonly bodyTooLarge?: true;
  /**
   * What the wire showed that a client cannot read one way only (a body that is not UTF-8, a
   * Content-Type sent twice); RESP-1's run-wide audit fails a JSON answer that has any.
   */
  readonly wireDefects?: readonly string[];
  readonly durationMs: number;
  /**
   * When the request went on the wire, by this process's `performance.now()` (after any wait for
   * a free slot or the pacer): with `durationMs`, when it was in flight.
   */
  readonly startedAt?: number;
}

export interface Exchange {
  readonly request: ApiRequest;
  readonly url: string;
  readonly response: ApiResponse;
}

/** The target gave no usable HTTP answer (timeout, reset, refused). */
export class TransportError extends Error {
  constructor(
    readonly url: string,
    readonly method: string,
    readonly reason: string,
    /**
     * The request never reached an HTTP server at the base URL: the connection was refused, the
     * host does not resolve, TLS failed, or the proxy could not be reached or refused the tunnel.
     */
    readonly unreachable = false,
    /** The server closed or reset the connection after the request reached it, without an answer. */
    readonly dropped = false,
  ) {
    super(`${method} ${url}: no answer from the target — ${reason}`);
    this.name = 'TransportError';
  }
}

/**
 * Not even a status line came back within the wait a caller asked for (`answerWithinMs`): the
 * connection was never accepted, or was accepted and never answered. The preflight asks for it,
 * so a hanging base URL stops the run at once instead of after every check's timeouts.
 */
export class NoAnswerError extends TransportError {
  constructor(
    url: string,
    method: string,
    readonly waitedMs: number,
  ) {
    super(url, method, `no answer within ${waitedMs / 1000} s (not even a status line)`);
    this.name = 'NoAnswerError';
  }
}

/**
 * The target's answer was larger than the profile's `maxResponseBytes`. Reading stopped there and
 * the connection was dropped. The limit is the suite's own, not the document's: a check it stops is
 * inconclusive, never failed.
 */
export class ResponseTooLargeError extends Error {
  constructor(
    readonly url: string,
    readonly method: string,
    readonly status: number,
    readonly limitBytes: number,
  ) {
    super(
      `${method} ${url} answered ${status} with a body larger than ${limitBytes} bytes (maxResponseBytes); the suite stopped reading and dropped the connection`,
    );
    this.name = 'ResponseTooLargeError';
  }

  /** What to do: the limit is the suite's, not the document's. */
  get remedy(): string {
    return `raise maxResponseBytes in the profile above ${this.limitBytes} if the target really sends bodies that large (the document sets no size limit)`;
  }
}

/**
 * The target kept answering `429 Too Many Requests`, or asked for a wait the run cannot afford.
 * A 429 says nothing about the rule under check, so it is never handed to a check as an answer.
 */
export class RateLimitedError extends TransportError {
  constructor(url: string, method: string, reason: string) {
    super(url, method, reason);
    this.message = `${method} ${url}: rate limited by the target — ${reason}`;
    this.name = 'RateLimitedError';
  }
}
