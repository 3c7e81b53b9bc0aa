import { createServer, type RequestListener } from 'node:http';

export interface LocalServer {
  readonly origin: string;
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
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
