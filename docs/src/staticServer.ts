import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.yaml': 'text/yaml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface RunningStaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The file a URL path names inside `root`, or undefined when it escapes `root` or does not exist. */
export function resolveSitePath(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return undefined;
  }
  const rootDir = resolve(root);
  const candidate = resolve(rootDir, `.${normalize(`/${decoded}`)}`);
  if (candidate !== rootDir && !candidate.startsWith(rootDir + sep)) return undefined;
  try {
    const stats = statSync(candidate);
    if (stats.isDirectory()) {
      const index = join(candidate, 'index.html');
      return statSync(index).isFile() ? index : undefined;
    }
    return stats.isFile() ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/** Serves the files under `root` read-only on `host:port` (port 0 picks a free one). */
export function startStaticServer(root: string, port = 0, host = '127.0.0.1'): Promise<RunningStaticServer> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const file = resolveSitePath(root, request.url ?? '/');
    if (file === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  });
  return new Promise((resolveStart, rejectStart) => {
    server.once('error', rejectStart);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      resolveStart({
        url: `http://${host}:${address.port}/`,
        close: () =>
          new Promise((resolveClose) => {
            server.closeAllConnections();
            server.close(() => resolveClose());
          }),
      });
    });
  });
}
