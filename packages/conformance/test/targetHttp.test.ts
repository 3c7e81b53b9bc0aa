import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseTooLargeError, TransportError } from '../src/transport/exchange.js';
import { proxyRoute } from '../src/transport/proxyAgents.js';
import { createTargetHttp } from '../src/transport/targetHttp.js';
import { REQUESTS_PER_CONNECTION } from '../src/transport/wireClient.js';
import { forwardTo, type LocalServer, listenLocally } from './localServer.js';

interface Arrival {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What the target receives, byte for byte, and a few odd answers keyed by path. */
describe('the transport (node:http, kept-alive connections)', () => {
  const arrivals: Arrival[] = [];
  let server: LocalServer;

  beforeAll(async () => {
    server = await listenLocally((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        arrivals.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if (req.url?.startsWith('/v1/hang')) return;
        if (req.url?.startsWith('/v1/garbage')) {
          req.socket.end('HTTP/1.1 two hundred OK\r\n\r\n');
          return;
        }
        if (req.url?.startsWith('/v1/repeated')) {
          res.setHeader('x-tag', ['a', 'b']);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        if (req.url?.startsWith('/v1/not-utf8')) {
          // Latin-1 bytes FF FE inside a JSON string: Node would decode them as U+FFFD silently.
          const bytes = Buffer.concat([
            Buffer.from('{"name":"'),
            Buffer.from([0xff, 0xfe]),
            Buffer.from('"}'),
          ]);
          res.writeHead(200, { 'content-type': 'application/json' }).end(bytes);
          return;
        }
        if (req.url?.startsWith('/v1/two-types')) {
          req.socket.end(
            'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-type: text/html\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}',
          );
          return;
        }
        if (req.url?.startsWith('/v1/split')) {
          // "é" is two bytes: the first chunk ends in the middle of it.
          const bytes = Buffer.from('{"name":"café"}', 'utf8');
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(bytes.subarray(0, 12));
          setTimeout(() => res.end(bytes.subarray(12)), 10);
          return;
        }
        if (req.url?.startsWith('/v1/big')) {
          // 3 MiB of JSON in 64 KiB writes; `big-stall` stops after 2 MiB and never ends.
          const stall = req.url.startsWith('/v1/big-stall');
          res.writeHead(200, { 'content-type': 'application/json' });
          const piece = 'x'.repeat(64 * 1024);
          res.write('"');
          for (let i = 0; i < (stall ? 32 : 48); i++) res.write(piece);
          if (!stall) res.end('"');
          return;
        }
        if (req.url?.startsWith('/v1/large')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(`"${'x'.repeat(4096)}`);
          setTimeout(() => res.end(`${'x'.repeat(4096)}"`), 10);
          return;
        }
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"r-1"}');
      });
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends the method, path, query, headers and body it is given, adding only a User-Agent and Accept when absent', async () => {
    const http = createTargetHttp({ baseUrl: `${server.origin}/v1`, requestTimeoutMs: 5000 });
    const exchange = await http.send({
      method: 'POST',
      path: '/compute/cloud-vms',
      query: [['workspace_id', '1 042+']],
      headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'x-idempotency-key': 'k' },
      body: '{"name":"vm-é"}',
    });
    const arrival = arrivals.at(-1) as Arrival;
    expect(arrival.method).toBe('POST');
    // Percent-encoded (a space as "%20", "+" as "%2B"), never form-encoded: a server decoding the
    // query as RFC 3986 says reads a "+" as a plus sign, so a space sent as "+" arrives as one.
    expect(arrival.url).toBe('/v1/compute/cloud-vms?workspace_id=1%20042%2B');
    expect(exchange.url).toBe(`${server.origin}${arrival.url}`);
    expect(arrival.body).toBe('{"name":"vm-é"}');
    expect(arrival.headers['content-length']).toBe(String(Buffer.byteLength('{"name":"vm-é"}')));
    expect(arrival.headers).toMatchObject({
      authorization: 'Bearer t',
      'content-type': 'application/json',
      'x-idempotency-key': 'k',
      accept: '*/*',
      'user-agent': 'cloud-api-conformance',
      // Without it any coding is acceptable, and a compressed body would not read as JSON.
      'accept-encoding': 'identity',
    });
    expect(exchange.response).toMatchObject({ status: 201, isJson: true, json: { id: 'r-1' } });

    await http.send({ method: 'GET', path: '/things', query: [], headers: { accept: 'application/json' } });
    expect((arrivals.at(-1) as Arrival).headers.accept).toBe('application/json');
  });

  it('never turns credentials in a URL into an Authorization header', async () => {
    const withCredentials = `${server.origin.replace('http://', 'http://ops:hunter2@')}/v1`;
    const http = createTargetHttp({ baseUrl: withCredentials, requestTimeoutMs: 5000 });
    const exchange = await http.send({ method: 'GET', path: '/things', query: [], headers: {} });
    expect(exchange.response.status).toBe(201);
    expect((arrivals.at(-1) as Arrival).headers.authorization).toBeUndefined();
  });

  it('joins a repeated response header with ", " and decodes a UTF-8 body split inside a character', async () => {
    const http = createTargetHttp({ baseUrl: `${server.origin}/v1`, requestTimeoutMs: 5000 });
    const repeated = await http.send({ method: 'GET', path: '/repeated', query: [], headers: {} });
    expect(repeated.response.headers['x-tag']).toBe('a, b');
    const split = await http.send({ method: 'GET', path: '/split', query: [], headers: {} });
    expect(split.response.json).toEqual({ name: 'café' });
    expect(split.response.wireDefects).toBeUndefined();
  });

  it('names what a client cannot read one way only: a body that is not UTF-8, a Content-Type sent twice', async () => {
    const http = createTargetHttp({ baseUrl: `${server.origin}/v1`, requestTimeoutMs: 5000 });
    const latin1 = await http.send({ method: 'GET', path: '/not-utf8', query: [], headers: {} });
    expect(latin1.response.isJson).toBe(true);
    expect(latin1.response.wireDefects).toEqual([
      'the body is not valid UTF-8 (JSON between systems must be UTF-8)',
    ]);
    const twoTypes = await http.send({ method: 'GET', path: '/two-types', query: [], headers: {} });
    expect(twoTypes.response.headers['content-type']).toBe('application/json');
    expect(twoTypes.response.wireDefects).toEqual([
      'content-type is sent 2 times ("application/json", "text/html"): a client may read either',
    ]);
  });

  it('stops reading a body past maxResponseBytes while it streams (its status stands, any read of the body throws), and fails a hanging answer at the timeout', async () => {
    const http = createTargetHttp({
      baseUrl: `${server.origin}/v1`,
      requestTimeoutMs: 300,
      maxResponseBytes: 6000,
    });
    const large = await http.send({ method: 'GET', path: '/large', query: [], headers: {} });
    // A refusal answered 200 with an endless body is still a 200: a check on the status judges it.
    expect(large.response.status).toBe(200);
    expect(large.response.bodyTooLarge).toBe(true);
    expect(() => large.response.bodyText).toThrow(ResponseTooLargeError);
    expect(() => large.response.json).toThrow(/larger than 6000 bytes \(maxResponseBytes\)/);
    // Recorders never see a body that was not read.
    expect(http.drain()).toEqual([]);
    const hanging = http.send({ method: 'GET', path: '/hang', query: [], headers: {} });
    await expect(hanging).rejects.toBeInstanceOf(TransportError);
    await expect(hanging).rejects.toThrow(/no complete answer within 300 ms \(timeout/);
    expect(http.stats.timeouts).toBe(1);
  });

  it('reads bodies past a megabyte one at a time, whole, and never loses the lane to an abandoned read', async () => {
    const http = createTargetHttp({ baseUrl: `${server.origin}/v1`, requestTimeoutMs: 1500, maxInFlight: 4 });
    const get = (path: string, via = http) => via.send({ method: 'GET', path, query: [], headers: {} });
    const together = await Promise.all([get('/big'), get('/big'), get('/big'), get('/big')]);
    for (const exchange of together) expect(exchange.response.bodyText).toHaveLength(3 * 1024 * 1024 + 2);

    // A body that stalls past a megabyte holds the lane until its timeout; a read waiting for the
    // lane and abandoned meanwhile gives it back; the next large body is read whole.
    const stalled = get('/big-stall');
    const stop = new AbortController();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const abandoned = get('/big', http.scoped(stop.signal));
    await new Promise((resolve) => setTimeout(resolve, 200));
    stop.abort();
    await expect(abandoned).rejects.toThrow(/the check was stopped/);
    await expect(stalled).rejects.toThrow(/no complete answer within 1500 ms/);
    expect((await get('/big')).response.bodyText).toHaveLength(3 * 1024 * 1024 + 2);
  });

  it('turns an answer that is not HTTP into a transport failure naming the parse error', async () => {
    const http = createTargetHttp({ baseUrl: `${server.origin}/v1`, requestTimeoutMs: 5000 });
    const garbage = http.send({ method: 'GET', path: '/garbage', query: [], headers: {} });
    await expect(garbage).rejects.toBeInstanceOf(TransportError);
    await expect(garbage).rejects.toThrow(/HPE_INVALID_STATUS/);
    expect(http.stats.timeouts).toBe(0);
  });

  it('abandons a request in flight on cancelInFlight without counting a timeout', async () => {
    const http = createTargetHttp({ baseUrl: `${server.origin}/v1`, requestTimeoutMs: 5000 });
    const hanging = http.send({ method: 'GET', path: '/hang', query: [], headers: {} });
    setTimeout(() => http.cancelInFlight(), 50);
    await expect(hanging).rejects.toThrow(/abandoned/);
    expect(http.stats.timeouts).toBe(0);
  });

  it('keeps a connection for the next request, closes it after 4 s idle, and never cuts a slow answer', async () => {
    const sockets = new Set<unknown>();
    const slow = await listenLocally((req, res) => {
      sockets.add(req.socket);
      setTimeout(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
        req.url === '/v1/slow' ? 4_500 : 0,
      );
    });
    try {
      const http = createTargetHttp({ baseUrl: `${slow.origin}/v1`, requestTimeoutMs: 10_000 });
      const get = (path: string) => http.send({ method: 'GET', path, query: [], headers: {} });
      await get('/a');
      await get('/b');
      expect(sockets.size).toBe(1);
      // Longer than the 4 s idle limit, on one connection: the limit is for idle ones only.
      expect((await get('/slow')).response.status).toBe(200);
      expect(sockets.size).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 4_300));
      await get('/c');
      expect(sockets.size).toBe(2);
    } finally {
      await slow.close();
    }
  }, 20_000);
});

describe('the transport through a proxy', () => {
  it("never hands a check the proxy's refusal of a tunnel as the target's answer: no answer, unreachable", async () => {
    const proxy = await listenLocally((_req, res) => res.writeHead(407).end());
    proxy.server.on('connect', (_req, socket) => {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n');
    });
    const saved = {
      HTTPS_PROXY: process.env.HTTPS_PROXY,
      NO_PROXY: process.env.NO_PROXY,
      no_proxy: process.env.no_proxy,
    };
    try {
      // proxy-from-env reads this process's environment only.
      Object.assign(process.env, { HTTPS_PROXY: proxy.origin, NO_PROXY: '', no_proxy: '' });
      const baseUrl = 'https://api.example.invalid/v1';
      const route = proxyRoute(new URL(baseUrl), 1_000);
      const http = createTargetHttp({
        baseUrl,
        requestTimeoutMs: 5_000,
        ...(route.agent ? { agent: route.agent } : {}),
        proxy: { url: proxy.origin, variable: 'HTTPS_PROXY' },
      });
      const error = await http
        .send({ method: 'GET', path: '/object-storage/buckets', query: [['workspace_id', '1']], headers: {} })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).unreachable).toBe(true);
      expect((error as TransportError).reason).toMatch(
        /^the proxy http:\/\/127\.0\.0\.1:\d+ that HTTPS_PROXY names refused a tunnel to api\.example\.invalid:443: the proxy answered CONNECT with 407/,
      );
      expect(http.drain()).toEqual([]);
    } finally {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      await proxy.close();
    }
  });
});

describe('a send on a connection of its own (a retry after a lost answer)', () => {
  const bucketList = {
    method: 'GET',
    path: '/object-storage/buckets',
    query: [['workspace_id', '1']],
    headers: {},
  } as const;

  /** Which connection each request came on to the first hop (the target, or the proxy), in order. */
  async function connectionsUsed(
    send: (http: ReturnType<typeof createTargetHttp>) => Promise<void>,
    viaProxy = false,
  ): Promise<number[]> {
    const sockets = new Map<object, number>();
    const used: number[] = [];
    const note = (socket: object): void => {
      if (!sockets.has(socket)) sockets.set(socket, sockets.size);
      used.push(sockets.get(socket) as number);
    };
    const target = await listenLocally((req, res) => {
      if (!viaProxy) note(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    // A proxy chooses its own connections upstream: what the client controls is its own to the proxy.
    const proxy = viaProxy
      ? await listenLocally((req, res) => {
          note(req.socket);
          forwardTo(target.origin, req, res);
        })
      : undefined;
    const saved = {
      HTTP_PROXY: process.env.HTTP_PROXY,
      NO_PROXY: process.env.NO_PROXY,
      no_proxy: process.env.no_proxy,
    };
    try {
      if (proxy) Object.assign(process.env, { HTTP_PROXY: proxy.origin, NO_PROXY: '', no_proxy: '' });
      const baseUrl = `${target.origin}/v1`;
      const route = proxy ? proxyRoute(new URL(baseUrl), 1_000) : undefined;
      const http = createTargetHttp({
        baseUrl,
        requestTimeoutMs: 5_000,
        ...(route?.agent ? { agent: route.agent } : {}),
        ...(route?.freshAgent ? { freshAgent: route.freshAgent } : {}),
      });
      await send(http);
      return used;
    } finally {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      await proxy?.close();
      await target.close();
    }
  }

  it.each([
    ['directly', false],
    ['through an HTTP proxy', true],
  ])('goes out on a new connection %s, while other sends share a kept-alive one', async (_how, viaProxy) => {
    const used = await connectionsUsed(async (http) => {
      for (const fresh of [false, false, true, true, false]) {
        const exchange = await http.send(bucketList, fresh ? { freshConnection: true } : {});
        expect(exchange.response.status).toBe(200);
      }
    }, viaProxy);
    // The kept-alive connection carries the plain sends; each fresh one has a connection of its own.
    expect(used).toEqual([0, 0, 1, 2, 0]);
  });

  it('moves to a new kept-alive connection every REQUESTS_PER_CONNECTION sends, so a balancer pinning connections meets every instance', async () => {
    const used = await connectionsUsed(async (http) => {
      for (let n = 0; n < 2 * REQUESTS_PER_CONNECTION + 5; n++) await http.send(bucketList);
    });
    expect(used).toEqual([
      ...Array(REQUESTS_PER_CONNECTION).fill(0),
      ...Array(REQUESTS_PER_CONNECTION).fill(1),
      ...Array(5).fill(2),
    ]);
  });
});
