import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';

export interface LocalServer {
  readonly origin: string;
  /** The server itself, for events beyond requests (a proxy's CONNECT). */
  readonly server: Server;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 and a free port, for tests that need a target with odd behaviour. */
export async function listenLocally(handler: RequestListener): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Passes `req` on to the same path at `upstream` and its answer back to `res` (502 when the
 * upstream cannot be reached). `body` sends an already-read request body instead of piping
 * `req`; `onAnswer` sees the upstream answer before it is passed back.
 */
export function forwardTo(
  upstream: string,
  req: IncomingMessage,
  res: ServerResponse,
  options: { body?: string; onAnswer?: (answer: IncomingMessage) => void } = {},
): void {
  const target = new URL(upstream);
  const forwarded = httpRequest(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      options.onAnswer?.(answer);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forwarded.on('error', () => res.writeHead(502).end());
  if (options.body === undefined) req.pipe(forwarded);
  else forwarded.end(options.body);
}
