import { type Agent, Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface WireAnswer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  /** The body, not yet read: the caller reads it (capped) or destroys it. */
  readonly body: IncomingMessage;
  /**
   * Bytes that came after the answer where HTTP allows none (a body after a 204, data after
   * `Connection: close`), as Node's parser refused them once the answer was handed over.
   */
  bytesAfterAnswer(): string | undefined;
}

/** Where a request goes: parsed once by the caller, never from a URL with credentials. */
export interface WireTarget {
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: string;
  /** Path and query, already encoded. */
  readonly path: string;
}

export interface WireRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /** On a connection opened for this request alone, closed after it (not a kept-alive one). */
  readonly freshConnection?: boolean | undefined;
}

/** A request on the wire: its answer, and how to abandon it (the socket is destroyed). */
export interface WireCall {
  readonly answer: Promise<WireAnswer>;
  cancel(reason: Error): void;
}

export interface WireClient {
  send(target: WireTarget, request: WireRequest): WireCall;
}

export const IDLE_CONNECTION_MS = 4_000;

/**
 * Every this many requests, one closes its kept-alive connection after its answer, so the next
 * opens another. Behind a balancer that pins connections to instances, a run on one kept-alive
 * connection (concurrency 1) would judge one instance only, whatever the others do (a canary on
 * another build, a cache of its own); new connections now and then meet them all.
 */
export const REQUESTS_PER_CONNECTION = 20;

/**
 * The proxy answered the CONNECT for an https target with something other than 200. The proxy
 * agent then hands Node the proxy's own answer as if the target had sent it (a 407, a 502); it is
 * refused here, so no check reads a proxy's refusal as the API's answer.
 */
export class ProxyTunnelRefused extends Error {
  readonly code = 'PROXY_TUNNEL_REFUSED';
  constructor(
    readonly status: number,
    readonly statusText: string,
  ) {
    super(`the proxy answered CONNECT with ${status}${statusText ? ` ${statusText}` : ''}`);
    this.name = 'ProxyTunnelRefused';
  }
}

/**
 * HTTP/1.1 over Node's own client with kept-alive connections. Not fetch: its WHATWG streams,
 * Headers and Response objects cost the run more CPU than everything else it does per request.
 * The body is sent with its exact length, never chunked; nothing is decompressed (nothing is
 * asked compressed). Cancelling destroys the request and its answer's stream.
 */
export function createWireClient(
  options: { readonly agent?: Agent | undefined; readonly freshAgent?: (() => Agent) | undefined } = {},
): WireClient {
  // An idle connection is closed after 4 s, before common servers' keep-alive timeouts (5 s and
  // up) end it on their side: a request sent on a connection the server is closing would fail.
  const idle = { keepAlive: true, timeout: IDLE_CONNECTION_MS };
  // A proxy's agent, when the environment names one, carries both kinds of target.
  const agents = options.agent
    ? { http: options.agent, https: options.agent }
    : { http: new HttpAgent(idle), https: new HttpsAgent(idle) };
  let sends = 0;
  return {
    send(target, { method, headers, body, freshConnection }) {
      let cancel: (reason: Error) => void = () => undefined;
      const closesConnection = !freshConnection && ++sends % REQUESTS_PER_CONNECTION === 0;
      const answer = new Promise<WireAnswer>((resolve, reject) => {
        const outgoing: Record<string, string> = { ...headers };
        if (body !== undefined) outgoing['content-length'] = String(Buffer.byteLength(body));
        // Host, port and path only: credentials in a URL would become a Basic Authorization
        // header on every request that carries none (the 401 probes). Invalid header values
        // throw synchronously, inside the executor, so they reject the promise.
        const sent = (target.secure ? httpsRequest : httpRequest)(
          {
            hostname: target.hostname,
            port: target.port,
            path: target.path,
            method,
            headers: outgoing,
            agent: freshConnection
              ? (options.freshAgent?.() ?? new (target.secure ? HttpsAgent : HttpAgent)({ keepAlive: false }))
              : target.secure
                ? agents.https
                : agents.http,
          },
          (incoming) => {
            cancel = (reason) => incoming.destroy(reason);
            if (tunnelRefused) {
              incoming.destroy();
              reject(tunnelRefused);
              return;
            }
            delivered = true;
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              body: incoming,
              bytesAfterAnswer: () => afterAnswer,
            });
          },
        );
        let tunnelRefused: ProxyTunnelRefused | undefined;
        let delivered = false;
        let afterAnswer: string | undefined;
        // https-proxy-agent tells the request how its CONNECT went before Node reads any answer.
        // (http-proxy-agent emits it too, without a status: no tunnel there.)
        sent.on('proxyConnect', (connect?: { statusCode?: unknown; statusText?: unknown }) => {
          const status = connect?.statusCode;
          if (typeof status === 'number' && status !== 200)
            tunnelRefused = new ProxyTunnelRefused(status, String(connect?.statusText ?? ''));
        });
        // Node writes `Connection: close` itself and destroys the socket after the answer. A
        // `connection: close` header set by hand is sent, but Node still hands the socket back to
        // the agent, which writes the next request on it while the server closes it (RFC 9112
        // §9.6: a client that sent "close" MUST NOT send further requests on that connection).
        if (closesConnection) sent.shouldKeepAlive = false;
        cancel = (reason) => sent.destroy(reason);
        sent.on('error', (error: Error & { code?: string }) => {
          // The parser goes on past a complete answer in the same read: what it refuses there was
          // sent after the answer, which no request can claim.
          if (delivered && error.code?.startsWith('HPE_')) afterAnswer = error.message;
          else reject(error);
        });
        sent.end(body);
      });
      return { answer, cancel: (reason) => cancel(reason) };
    },
  };
}
