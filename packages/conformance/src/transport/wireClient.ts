import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface WireAnswer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  /** The body, not yet read: the caller reads it (capped) or destroys it. */
  readonly body: IncomingMessage;
}

export interface WireClient {
  send(
    href: string,
    request: {
      readonly method: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly body?: string | undefined;
      readonly signal: AbortSignal;
    },
  ): Promise<WireAnswer>;
}

const IDLE_CONNECTION_MS = 4_000;

/**
 * HTTP/1.1 over Node's own client with kept-alive connections. Not fetch: its WHATWG streams,
 * Headers and Response objects cost the run more CPU than everything else it does per request,
 * and loading undici in the worker cost every run a tenth of a second. The body is sent with its
 * exact length, never chunked; nothing is decompressed (nothing is asked compressed).
 */
export function createWireClient(): WireClient {
  // An idle connection is closed after 4 s, before common servers' keep-alive timeouts (5 s and
  // up) end it on their side: a request sent on a connection the server is closing would fail.
  const idle = { keepAlive: true, timeout: IDLE_CONNECTION_MS };
  const agents = { 'http:': new HttpAgent(idle), 'https:': new HttpsAgent(idle) };
  return {
    send(href, { method, headers, body, signal }) {
      return new Promise<WireAnswer>((resolve, reject) => {
        const url = new URL(href);
        const secure = url.protocol === 'https:';
        const outgoing = { ...headers };
        if (body !== undefined) outgoing['content-length'] = String(Buffer.byteLength(body));
        // Host, port and path only: credentials in a URL would become a Basic Authorization
        // header on every request that carries none (the 401 probes). Invalid header values
        // throw synchronously, inside the executor, so they reject the promise.
        const sent = (secure ? httpsRequest : httpRequest)(
          {
            protocol: url.protocol,
            hostname: url.hostname.replace(/^\[|\]$/g, ''),
            port: url.port,
            path: `${url.pathname}${url.search}`,
            method,
            headers: outgoing,
            agent: secure ? agents['https:'] : agents['http:'],
            signal,
          },
          (answer) => {
            resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: answer });
          },
        );
        sent.on('error', reject);
        sent.end(body);
      });
    },
  };
}
