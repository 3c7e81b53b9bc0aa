import type { Client, Middleware } from 'openapi-fetch';
import { CALL_CONTEXT, CallContext } from './callContext.js';
import type { ClientPaths } from './clientPaths.js';
import { InvalidRequestError } from './errors.js';
import { type FetchFunction, resolveTimeoutMs } from './transport.js';

type CallInit = Record<string, unknown> | undefined;
type CoreCall = (url: string, init?: CallInit) => Promise<unknown>;
type CoreClient = Record<(typeof callMethods)[number], CoreCall> & {
  request(method: string, url: string, init?: CallInit): Promise<unknown>;
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
};

const callMethods = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

/**
 * The `api` callers get: the openapi-fetch client, except that
 * - a per-call `fetch` (which openapi-fetch would call instead of the client's transport,
 *   skipping every rule) is wrapped in the client's transport, so the rules, timeouts and
 *   retries apply to it too;
 * - each call carries a `CallContext`, so its timeout covers the body openapi-fetch reads, and
 *   may carry its own `timeoutMs`;
 * - middleware are registered on `cores.real` (and tracked in `registered`); a call goes through
 *   `cores.real` while any are registered or when it brings its own `middleware`, because
 *   middleware are promised real `Request`s, and through `cores.light` otherwise.
 */
export function guardedApi(
  cores: { readonly light: Client<ClientPaths>; readonly real: Client<ClientPaths> },
  transportFor: (fetch: FetchFunction) => FetchFunction,
  registered: Middleware[],
): Client<ClientPaths> {
  const light = cores.light as unknown as CoreClient;
  const real = cores.real as unknown as CoreClient;
  const notAFetch: FetchFunction = () =>
    Promise.reject(
      new InvalidRequestError(
        'A per-call `fetch` must be a function that takes a Request and returns a Response. Nothing was sent.',
      ),
    );
  const coreFor = (init: CallInit): CoreClient =>
    registered.length > 0 || (Array.isArray(init?.middleware) && init.middleware.length > 0) ? real : light;
  /**
   * The init openapi-fetch gets: the call's context (see `CallContext`: it keeps the timeout
   * armed until openapi-fetch has read the body), a per-call `timeoutMs` moved into it, and a
   * per-call `fetch` wrapped in the transport.
   */
  const withCall = (init: CallInit, context: CallContext): Record<string, unknown> => {
    if (init === undefined || init === null) return { [CALL_CONTEXT]: context };
    const { fetch, timeoutMs: _timeoutMs, ...rest } = init;
    const call: Record<string, unknown> = { ...rest, [CALL_CONTEXT]: context };
    if (fetch !== undefined) {
      call.fetch = typeof fetch === 'function' ? transportFor(fetch as FetchFunction) : notAFetch;
    }
    return call;
  };
  /** One `api` call: its context is settled however it ends, once openapi-fetch is done with it. */
  const send = async (core: CoreClient, method: string, url: string, init: CallInit): Promise<unknown> => {
    const timeoutMs = init?.timeoutMs === undefined ? undefined : resolveTimeoutMs(init.timeoutMs);
    const context = new CallContext(timeoutMs);
    try {
      return await core.request(method, url, withCall(init, context));
    } catch (thrown) {
      throw context.failure(thrown);
    } finally {
      context.settle();
    }
  };
  const api: Record<string, unknown> = {
    request: (method: string, url: string, init?: CallInit) => send(coreFor(init), method, url, init),
    // Mirrors openapi-fetch's own bookkeeping (it skips empty entries and validates the rest).
    use: (...middleware: Middleware[]) => {
      for (const entry of middleware) {
        real.use(entry);
        if (entry) registered.push(entry);
      }
    },
    eject: (...middleware: Middleware[]) => {
      real.eject(...middleware);
      for (const entry of middleware) {
        const index = registered.indexOf(entry);
        if (index !== -1) registered.splice(index, 1);
      }
    },
  };
  for (const method of callMethods) {
    api[method] = (url: string, init?: CallInit) => send(coreFor(init), method, url, init);
  }
  return Object.freeze(api) as unknown as Client<ClientPaths>;
}
