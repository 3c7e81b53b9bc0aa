import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetHttp } from '../src/transport/targetHttp.js';
import { type LocalServer, listenLocally } from './localServer.js';

/**
 * A backend that dies while it writes: the status line and headers go out, then part of the
 * body, then the connection closes. The failure says that, not "connection reset".
 */
let server: LocalServer;
let baseUrl = '';

beforeAll(async () => {
  server = await listenLocally((req, res) => {
    if (req.url?.endsWith('/length')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"detail":"');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"detail":"');
    }
    res.flushHeaders();
    setTimeout(() => res.socket?.destroy(), 50);
  });
  baseUrl = `${server.origin}/v1`;
});

afterAll(() => server.close());

const sent = (path: string) =>
  createTargetHttp({ baseUrl, requestTimeoutMs: 5_000, maxInFlight: 1 }).send({
    method: 'GET',
    path,
    query: [],
    headers: {},
  });

describe('a body cut short is named as such, with how much came', () => {
  it('against its Content-Length', async () => {
    await expect(sent('/length')).rejects.toThrow(
      /answer cut short: the status line and headers came \(200\), then the connection closed after 11 bytes of the body of the 100 its Content-Length announced/,
    );
  });

  it('before the last chunk of a chunked body', async () => {
    await expect(sent('/chunked')).rejects.toThrow(
      /answer cut short: .*closed after 11 bytes of the body, before the last chunk of its chunked body/,
    );
  });
});
