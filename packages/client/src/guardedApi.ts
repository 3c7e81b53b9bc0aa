import type { Client, Middleware } from 'openapi-fetch';
import type { ClientPaths } from './clientPaths.js';
import { InvalidRequestError } from './errors.js';
import type { FetchFunction } from './transport.js';

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
 * - middleware are tracked in `registered` (the client has openapi-fetch build real `Request`s
 *   while there are any), and a call with its own `middleware` gets real `Request`s too.
 */
export function guardedApi(
  core: Client<ClientPaths>,
  transportFor: (fetch: FetchFunction) => FetchFunction,
  registered: Middleware[],
): Client<ClientPaths> {
  const inner = core as unknown as CoreClient;
  const notAFetch: FetchFunction = () =>
    Promise.reject(
      new InvalidRequestError(
        'A per-call `fetch` must be a function that takes a Request and returns a Response. Nothing was sent.',
      ),
    );
  const withTransport = (init: CallInit): CallInit => {
    if (init === undefined || init === null) return init;
    const { fetch, middleware } = init;
    const perCallMiddleware =
      Array.isArray(middleware) && middleware.length > 0 && init.Request === undefined;
    if (fetch === undefined && !perCallMiddleware) return init;
    const adjusted = { ...init };
    if (fetch !== undefined) {
      adjusted.fetch = typeof fetch === 'function' ? transportFor(fetch as FetchFunction) : notAFetch;
    }
    if (perCallMiddleware) adjusted.Request = globalThis.Request;
    return adjusted;
  };
  const api: Record<string, unknown> = {
    request: (method: string, url: string, init?: CallInit) =>
      inner.request(method, url, withTransport(init)),
    // Mirrors openapi-fetch's own bookkeeping (it skips empty entries and validates the rest).
    use: (...middleware: Middleware[]) => {
      for (const entry of middleware) {
        inner.use(entry);
        if (entry) registered.push(entry);
      }
    },
    eject: (...middleware: Middleware[]) => {
      inner.eject(...middleware);
      for (const entry of middleware) {
        const index = registered.indexOf(entry);
        if (index !== -1) registered.splice(index, 1);
      }
    },
  };
  for (const method of callMethods) {
    const call = inner[method];
    api[method] = (url: string, init?: CallInit) => call(url, withTransport(init));
  }
  return Object.freeze(api) as unknown as Client<ClientPaths>;
}
