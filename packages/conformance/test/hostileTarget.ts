import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { forwardTo } from './localServer.js';

/**
 * How a hostile target misbehaves. Each mode is something a platform team's CI meets in real
 * environments: a wedged load balancer (hang), a crashing backend (reset), a congested link
 * (slow, drip), a misconfigured proxy (non-JSON, wrong content type, redirects), an overloaded
 * service (5xx, 429), a backend that dies mid-run (dying), a buggy or malicious one (huge bodies, echoing the credentials it was sent).
 */
export type HostileMode =
  | 'hang'
  | 'reset'
  | 'slow'
  | 'drip'
  | 'non-json'
  | 'server-error'
  | 'dying'
  | 'huge-body'
  | 'wrong-content-type'
  | 'redirect'
  | 'rate-limit-huge'
  | 'rate-limit-moderate'
  | 'token-echo'
  | 'foreign-token';

export interface HostileTargetOptions {
  /** A correct implementation to pass requests on to (slow, wrong-content-type, rate-limit-moderate). */
  readonly upstream?: string;
  /** Delay of `slow`, per request. */
  readonly latencyMs?: number;
  /** Where `redirect` sends clients: a second loopback address that must never be reached. */
  readonly redirectTo?: string;
  /** Bytes of a `huge-body` answer. */
  readonly hugeBytes?: number;
  /** Requests `dying` passes on to its upstream before it answers 500 to everything. */
  readonly healthyRequests?: number;
}

export interface HostileTarget {
  readonly origin: string;
  readonly baseUrl: string;
  /** Requests received, by method and path (query included). */
  readonly requests: string[];
  close(): Promise<void>;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** The bearer credential of a request, exactly as sent. */
function credentialOf(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  return header.replace(/^\S+\s+/, '');
}

/**
 * Tokens of other callers, never sent by the suite, that `foreign-token` leaks: one of each
 * environment, obviously fake, and one made of every character a token may hold.
 */
export const FOREIGN_TOKENS = [
  'svc_prod_key_FAKEforeignLeak7NotAreal',
  'svc_dev_key_FAKEotherCaller4NotAreal',
  'svc_dev_key_FAKE-._~+/Leak9NotAreal==',
] as const;

/**
 * A body that carries a token in every field a check reads (ids, detail, status) and in headers:
 * the credential the request was sent with, or (`foreign`) a token of another caller.
 */
function echo(req: IncomingMessage, res: ServerResponse, foreign?: string): void {
  const token = foreign ?? credentialOf(req);
  const encoded = Buffer.from(token).toString('base64');
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const status =
    req.method === 'POST' && path.endsWith('/cloud-vms') ? 202 : req.method === 'DELETE' ? 202 : 200;
  const body = {
    operation_id: token,
    vm_id: token,
    status: token,
    submitted_at: token,
    allowed: true,
    detail: `token ${token} / ${encoded} / ${encodeURIComponent(token)}`,
    name: token,
    restore_id: token,
    policy_id: token,
  };
  res
    .writeHead(status, { ...JSON_TYPE, 'x-echo-token': token, 'x-echo-base64': encoded })
    .end(JSON.stringify(path.endsWith('/buckets') ? [body] : body));
}

/** Streams `bytes` of one JSON string, honouring backpressure, and stops when the client goes away. */
function hugeBody(res: ServerResponse, bytes: number): void {
  res.writeHead(200, JSON_TYPE);
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  res.write('{"detail":"');
  const pump = (): void => {
    while (sent < bytes && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end('"}');
  };
  res.on('close', () => {
    sent = bytes;
  });
  pump();
}

export async function startHostileTarget(
  mode: HostileMode,
  options: HostileTargetOptions = {},
): Promise<HostileTarget> {
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, action: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  };
  const upstream = (): string => {
    if (!options.upstream) throw new Error(`mode ${mode} needs an upstream`);
    return options.upstream;
  };
  let counter = 0;
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    counter++;
    switch (mode) {
      case 'hang':
        return; // Never answers; the socket stays open.
      case 'reset':
        req.socket.destroy();
        return;
      case 'slow':
        later(options.latencyMs ?? 1000, () => forwardTo(upstream(), req, res));
        return;
      case 'drip': {
        res.writeHead(200, JSON_TYPE);
        res.write('{"allowed":');
        const drip = setInterval(() => {
          if (res.destroyed) clearInterval(drip);
          else res.write(' ');
        }, 200);
        res.on('close', () => clearInterval(drip));
        return;
      }
      case 'non-json':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('OK, everything went fine');
        return;
      case 'server-error':
        res.writeHead(500, JSON_TYPE).end('{"detail":"internal server error"}');
        return;
      case 'dying':
        // A database that went away mid-run: fine for a while, then 500 for good.
        if (counter <= (options.healthyRequests ?? 100)) forwardTo(upstream(), req, res);
        else res.writeHead(500, JSON_TYPE).end('{"detail":"internal server error"}');
        return;
      case 'huge-body':
        hugeBody(res, options.hugeBytes ?? 1024 * 1024 * 1024);
        return;
      case 'wrong-content-type':
        forwardTo(upstream(), req, res, {
          onAnswer: (answer) => {
            answer.headers['content-type'] = 'text/html; charset=utf-8';
          },
        });
        return;
      case 'redirect':
        res
          .writeHead(307, { location: `${options.redirectTo ?? 'http://127.0.0.2:9'}${req.url ?? '/'}` })
          .end();
        return;
      case 'rate-limit-huge':
        res.writeHead(429, { ...JSON_TYPE, 'retry-after': '86400' }).end('{"detail":"slow down"}');
        return;
      case 'rate-limit-moderate':
        // Every third request is refused once, as a token bucket running dry would.
        if (counter % 3 === 0) {
          res.writeHead(429, { ...JSON_TYPE, 'retry-after': '1' }).end('{"detail":"slow down"}');
          return;
        }
        forwardTo(upstream(), req, res);
        return;
      case 'token-echo':
        echo(req, res);
        return;
      case 'foreign-token':
        echo(req, res, FOREIGN_TOKENS[counter % FOREIGN_TOKENS.length]);
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A listener on another loopback address that counts what reaches it (it never should). */
export async function startWitness(host = '127.0.0.2'): Promise<{
  readonly origin: string;
  readonly hits: string[];
  close(): Promise<void>;
}> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} authorization=${req.headers.authorization ? 'present' : 'absent'}`);
    res.writeHead(200, JSON_TYPE).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://${host}:${port}`,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
