/**
 * What one call of a helper or of `api` shares with the transport that sends it. openapi-fetch
 * copies an unknown init member onto the request it builds (a `LightRequest` keeps its init), so
 * the call hands this over as `init[CALL_CONTEXT]` and the transport finds it on the request.
 *
 * It exists because the per-attempt timeout must cover the response body, which openapi-fetch
 * reads after the transport has returned: the transport leaves the attempt's timer armed and
 * `settle()`s it here, and the call settles once openapi-fetch has read the body. Without a
 * context (a middleware replaced the Request), the transport reads the body itself instead.
 */
export class CallContext {
  /** This call's per-attempt timeout, overriding the client's. */
  readonly timeoutMs: number | undefined;
  /** The `X-Idempotency-Key` the request was sent with, once the rules have set it. */
  idempotencyKey: string | undefined;
  /** The `sku_code` the billing preflight asked about, for a billable create. */
  skuCode: string | undefined;
  #release: (() => void) | undefined;
  #lostBody: ((thrown: unknown) => Error) | undefined;

  constructor(timeoutMs: number | undefined) {
    this.timeoutMs = timeoutMs;
  }

  /**
   * The transport hands over the armed timer of the attempt whose answer it returned, and the
   * client error that a connection lost while the body is read stands for.
   */
  hold(release: () => void, lostBody: (thrown: unknown) => Error): void {
    this.#release = release;
    this.#lostBody = lostBody;
  }

  /**
   * What a call's failure stands for: while a held answer's body was being read, undici reports
   * a lost connection as a bare `TypeError` ("terminated"); that becomes the client's
   * `NetworkError`. Anything else (the caller's abort, the client's timeout) is returned as is.
   * Call it before `settle()`.
   */
  failure(thrown: unknown): unknown {
    return this.#release !== undefined && this.#lostBody !== undefined && thrown instanceof TypeError
      ? this.#lostBody(thrown)
      : thrown;
  }

  /** The body has been read (or the call failed): disarm the attempt's timer and listeners. */
  settle(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

/** The init member (a string: openapi-fetch copies only string keys onto a Request). */
export const CALL_CONTEXT = 'cloudApiCall';

/** The call context a request carries, if any. */
export function callContextOf(request: object): CallContext | undefined {
  const context = (request as { [CALL_CONTEXT]?: unknown })[CALL_CONTEXT];
  return context instanceof CallContext ? context : undefined;
}

/** Runs one call with a fresh context and settles it however the call ends. */
export async function withCallContext<T>(
  timeoutMs: number | undefined,
  run: (context: CallContext) => Promise<T>,
): Promise<T> {
  const context = new CallContext(timeoutMs);
  try {
    return await run(context);
  } catch (thrown) {
    throw context.failure(thrown);
  } finally {
    context.settle();
  }
}
