import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { openApiYamlPath } from '@cloud-api/spec';
import { RunSetupError } from '../run/runSetupError.js';
import { freePort } from './freePort.js';
import type { RunningTarget } from './runningTarget.js';

const STARTUP_TIMEOUT_MS = 60_000;

/** Prism's CLI script; without the optional peer installed, bad input with the line that installs it. */
function prismBin(): string {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve('@stoplight/prism-cli/dist/index.js');
  } catch {
    throw new RunSetupError(
      '--target prism needs the Prism mock server, an optional peer of @cloud-api/conformance that is not installed: run "npm install --save-dev @stoplight/prism-cli@5.14.2" (on Node 20, pin its @stoplight/prism-* packages as the README says), or use --target sandbox',
    );
  }
}

async function waitUntilServing(
  port: number,
  child: ChildProcess,
  output: () => string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new Error('Prism start cancelled');
    if (child.exitCode !== null)
      throw new Error(`Prism exited with code ${child.exitCode} while starting:\n${output().slice(-2000)}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/object-storage/buckets`, {
        signal: AbortSignal.timeout(1000),
      });
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`Prism did not start within ${STARTUP_TIMEOUT_MS / 1000} s:\n${output().slice(-2000)}`);
}

/**
 * Prism mounts the spec's paths at the root and ignores the `/v1` of the server URL, so a small
 * proxy serves them under `/v1` the way the document says the API is addressed.
 */
function versionPrefixProxy(prismPort: number): Server {
  return createServer((req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith('/v1/')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ detail: 'Not found: the API lives under /v1' }));
      return;
    }
    const upstream = httpRequest(
      { host: '127.0.0.1', port: prismPort, method: req.method, path: url.slice(3), headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'Prism did not answer' }));
    });
    req.pipe(upstream);
  });
}

/** Starts Prism (stopped again if `signal` aborts while it starts) behind the `/v1` proxy. */
export async function startPrismTarget(signal?: AbortSignal): Promise<RunningTarget> {
  const prismPort = await freePort();
  let output = '';
  const child = spawn(
    process.execPath,
    [prismBin(), 'mock', '-h', '127.0.0.1', '-p', String(prismPort), openApiYamlPath],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk) => {
    output = (output + String(chunk)).slice(-20_000);
  });
  child.stderr?.on('data', (chunk) => {
    output = (output + String(chunk)).slice(-20_000);
  });
  // A forced exit (second Ctrl-C, process.exit) skips every async cleanup: kill Prism synchronously then.
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stopChild = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilServing(prismPort, child, () => output, signal);
  } catch (error) {
    await stopChild();
    throw error;
  }
  const proxy = versionPrefixProxy(prismPort);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    async stop() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await stopChild();
    },
  };
}
