import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetHttp } from '../src/transport/targetHttp.js';
import { REQUESTS_PER_CONNECTION } from '../src/transport/wireClient.js';

/**
 * A server that honours a request's `Connection: close` as Python's http.server does: it closes
 * the connection after the answer, without saying so in the answer (RFC 9112 §9.6 only says it
 * SHOULD). The client that sent "close" MUST NOT send another request on that connection.
 */
let server: Server;
let baseUrl = '';
const sockets = new Set<Socket>();
let requests = 0;
let connections = 0;
let closesAsked = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    let closing = false;
    socket.on('data', (chunk) => {
      // Past a "close", the handler reads nothing more from this connection.
      if (closing) return;
      buffered += chunk.toString('latin1');
      let end = buffered.indexOf('\r\n\r\n');
      while (end !== -1) {
        const head = buffered.slice(0, end);
        buffered = buffered.slice(end + 4);
        requests++;
        const body = '[]';
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
        );
        // Closed a moment later, as a threaded server's handler returns: a request written on
        // the connection meanwhile is never answered.
        if (/^connection:\s*close/im.test(head)) {
          closesAsked++;
          closing = true;
          setTimeout(() => socket.destroy(), 30);
          return;
        }
        end = buffered.indexOf('\r\n\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a request that asks to close its connection is the last one sent on it', () => {
  it(`sends ${3 * REQUESTS_PER_CONNECTION} requests one after another, each answered, against a server that closes after a "close" without saying so`, async () => {
    const http = createTargetHttp({ baseUrl, requestTimeoutMs: 5_000, maxInFlight: 1 });
    const statuses: number[] = [];
    for (let i = 0; i < 3 * REQUESTS_PER_CONNECTION; i++) {
      const exchange = await http.send({
        method: 'GET',
        path: '/object-storage/buckets',
        query: [],
        headers: {},
      });
      statuses.push(exchange.response.status);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(requests).toBe(3 * REQUESTS_PER_CONNECTION);
    // Every REQUESTS_PER_CONNECTION-th request still asks to close, and the next opens another.
    expect(closesAsked).toBe(3);
    expect(connections).toBe(3);
  });
});
