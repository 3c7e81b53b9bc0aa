import type { FetchFunction } from '../src/index.js';

/** What the stub saw of one request. */
export interface SentRequest {
  readonly method: string;
  readonly url: URL;
  readonly path: string;
  readonly headers: Headers;
  readonly body: string;
}

export type StubHandler = (sent: SentRequest, index: number) => Response | Promise<Response>;

/** A fetch that never touches the network: records each request, answers with `handler`. */
export function stubFetch(
  handler: StubHandler = () => json(200, {}),
): FetchFunction & { sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    const record: SentRequest = {
      method: request.method,
      url,
      path: url.pathname,
      headers: new Headers(request.headers),
      body: request.body === null ? '' : await request.text(),
    };
    sent.push(record);
    return handler(record, sent.length - 1);
  };
  return Object.assign(fetch, { sent });
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fetch failure as undici reports it. */
export function networkFailure(): never {
  throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
}

/** Answers only when the request is aborted (by the client's timeout), like a hung server. */
export function hang(signal: AbortSignal): Promise<Response> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export const devToken = 'svc_dev_key_sandbox_full';
export const prodToken = 'svc_prod_key_sandbox_full';
export const devBaseUrl = 'https://dev-api.cloud.invalid/v1';
export const prodBaseUrl = 'https://api.cloud.invalid/v1';
/**
 * The spec's placeholder hosts, named explicitly: a client left on the default placeholder is
 * refused, but tests with a stub fetch never resolve a host, so they name it.
 */
export const environments = { development: devBaseUrl, production: prodBaseUrl } as const;

export const acceptance = {
  operation_id: 'op-4c1e7a90',
  vm_id: 'vm-7f3a9c2e',
  status: 'accepted',
  submitted_at: '2026-11-21T09:30:00Z',
} as const;

/** Answers the preflight with `decision` and every other request with an acceptance record. */
export function preflightThen(decision: unknown): StubHandler {
  return (sent) =>
    sent.path.endsWith('/billing/resource-eligibility') ? json(200, decision) : json(202, acceptance);
}
