/**
 * The target both measures share: a sandbox served by `node:http` in the bench's own process, as
 * the default run serves it. It can be reset to a fresh sandbox (a run consumes what it deletes)
 * and can record what arrives, so a later process can replay the suite's exact requests.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { loadSandboxModule, TargetProfile } from '@cloud-api/conformance';

type SandboxModule = Awaited<ReturnType<typeof loadSandboxModule>>;

interface SandboxWithHandle {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
}

/** One request as it arrived, with the status it was answered with. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  status?: number;
}

export interface BenchTarget {
  readonly baseUrl: string;
  readonly served: () => number;
  /** A fresh sandbox, the served count back to 0. */
  reset(): void;
  /** Starts keeping every request that arrives; returns what it kept so far. */
  record(): RecordedRequest[];
  close(): Promise<void>;
}

export async function startBenchTarget(
  sandboxModule: SandboxModule,
  profile: TargetProfile,
): Promise<BenchTarget> {
  const fresh = (): SandboxWithHandle =>
    sandboxModule.createSandbox({ profile }) as unknown as SandboxWithHandle;
  let sandbox = fresh();
  let served = 0;
  let recorded: RecordedRequest[] | undefined;
  const server = createServer((req, res) => {
    served++;
    if (recorded) {
      const entry: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: headersToReplay(req),
        body: '',
      };
      recorded.push(entry);
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        (entry as { body: string }).body = Buffer.concat(chunks).toString('utf8');
      });
      res.on('finish', () => {
        entry.status = res.statusCode;
      });
    }
    sandbox.handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    served: () => served,
    reset() {
      sandbox = fresh();
      served = 0;
    },
    record() {
      recorded ??= [];
      return recorded;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The headers the client chose (the connection's own are the replaying client's to set). */
function headersToReplay(req: IncomingMessage): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'host' || name === 'connection' || value === undefined) continue;
    kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}
