/**
 * Throughput benchmark: the sandbox, Prism's mock of the same spec and a bare node:http server
 * answering a constant, each in its own process, driven by autocannon with the same request mix
 * (GET restore, PATCH NAT rule, POST billing preflight; all valid and authorised), the same
 * connections and duration, in one run. Prints req/s, p99 and the ratios against the goals.
 * The three are measured in interleaved rounds and the median of each is reported, so that
 * load from other processes on the machine weighs on all three alike.
 *
 *   pnpm --filter @cloud-api/sandbox bench [-- --duration 4 --rounds 3 --connections 32]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiJsonPath } from '@cloud-api/spec';
import autocannon from 'autocannon';

const packageDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? undefined : Number(process.argv[index + 1]);
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
};
const DURATION_S = argument('duration', 4);
const ROUNDS = argument('rounds', 3);
const WARMUP_S = 2;
const CONNECTIONS = argument('connections', 32);

const BARE_SERVER = `
const http = require('node:http');
const body = '{"allowed":true}';
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.argv[1]), '127.0.0.1');
`;

interface Target {
  readonly name: string;
  readonly origin: string;
  readonly basePath: string;
  readonly token: string;
  readonly process: ChildProcess;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

async function waitFor(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const accepts = (port: number) =>
  new Promise<boolean>((done) => {
    const socket: Socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      done(true);
    });
    socket.on('error', () => done(false));
  });

async function startSandbox(workDirectory: string): Promise<Target> {
  const port = await freePort();
  const profilePath = join(workDirectory, 'profile.json');
  const child = spawn(
    process.execPath,
    [join(packageDirectory, 'dist/cli.js'), '--port', String(port), '--profile-out', profilePath],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  await waitFor(async () => existsSync(profilePath) && (await accepts(port)), 'the sandbox');
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as {
    identities: { full: { token: string } };
  };
  return {
    name: 'sandbox',
    origin: `http://127.0.0.1:${port}`,
    basePath: '/v1',
    token: profile.identities.full.token,
    process: child,
  };
}

async function startPrism(): Promise<Target> {
  const port = await freePort();
  const child = spawn(
    join(packageDirectory, 'node_modules/.bin/prism'),
    ['mock', openApiJsonPath, '-p', String(port), '-h', '127.0.0.1'],
    {
      stdio: ['ignore', 'ignore', 'ignore'],
    },
  );
  await waitFor(() => accepts(port), 'Prism');
  // Prism serves the spec's paths at its root; it checks only that a bearer token is present.
  return {
    name: 'prism mock',
    origin: `http://127.0.0.1:${port}`,
    basePath: '',
    token: 'svc_dev_key_bench_placeholder',
    process: child,
  };
}

async function startBare(): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER, String(port)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(() => accepts(port), 'the bare server');
  return {
    name: 'bare node:http',
    origin: `http://127.0.0.1:${port}`,
    basePath: '',
    token: 'unused',
    process: child,
  };
}

function requestMix(target: Target) {
  const headers = { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' };
  const base = target.basePath;
  return [
    {
      method: 'GET',
      path: `${base}/compute/cloud-vm-snapshots/restores/rst-0001?workspace_id=1042`,
      headers: { authorization: headers.authorization },
    },
    {
      method: 'PATCH',
      path: `${base}/networking/vpcs/vpc-0001/nat-gateways/natgw-0001/port-forwarding-rules/pfr-0001?workspace_id=1042`,
      headers,
      body: '{"note":"benchmark","enabled":true}',
    },
    {
      method: 'POST',
      path: `${base}/billing/resource-eligibility?workspace_id=1042`,
      headers,
      body: '{"sku_code":"cloud-vm-standard-2"}',
    },
  ];
}

interface Measurement {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
}

async function measure(target: Target, durationS: number): Promise<Measurement> {
  const result = await autocannon({
    url: target.origin,
    connections: CONNECTIONS,
    pipelining: 1,
    requests: requestMix(target),
    duration: durationS,
  });
  return {
    name: target.name,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] as number;
  return ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function summarise(name: string, rounds: readonly Measurement[]): Measurement {
  return {
    name,
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    total: rounds.reduce((sum, r) => sum + r.total, 0),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
  };
}

async function main(): Promise<void> {
  if (!existsSync(join(packageDirectory, 'dist/cli.js')))
    throw new Error('Build the sandbox first: pnpm --filter @cloud-api/sandbox build');
  const workDirectory = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const targets: Target[] = [];
  try {
    console.log(
      `Request mix: GET restore, PATCH NAT rule, POST billing preflight; ${CONNECTIONS} connections; ${ROUNDS} interleaved rounds of ${DURATION_S} s per target after a ${WARMUP_S} s warm-up; medians reported.`,
    );
    for (const start of [startSandbox, startPrism, startBare]) targets.push(await start(workDirectory));
    for (const target of targets) await measure(target, WARMUP_S);
    const rounds = new Map<string, Measurement[]>(targets.map((target) => [target.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order so that no target always runs first or last.
      for (let offset = 0; offset < targets.length; offset++) {
        const target = targets[(round + offset) % targets.length] as Target;
        rounds.get(target.name)?.push(await measure(target, DURATION_S));
      }
    }
    const results = targets.map((target) => summarise(target.name, rounds.get(target.name) ?? []));
    console.log('');
    console.log('| target | req/s (median) | p99 ms (median) | requests (all rounds) | non-2xx | errors |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const r of results) {
      console.log(
        `| ${r.name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p99Ms} | ${r.total} | ${r.non2xx} | ${r.errors} |`,
      );
    }
    const [sandbox, prism, bare] = results as [Measurement, Measurement, Measurement];
    const versusPrism = sandbox.requestsPerSecond / Math.max(prism.requestsPerSecond, 1);
    const versusBare = sandbox.requestsPerSecond / Math.max(bare.requestsPerSecond, 1);
    console.log('');
    console.log(
      `sandbox / prism: ${versusPrism.toFixed(1)}x (goal >= 10x) ${versusPrism >= 10 ? 'MET' : 'MISSED'}`,
    );
    console.log(
      `sandbox / bare node:http: ${versusBare.toFixed(2)}x (goal >= 0.4x) ${versusBare >= 0.4 ? 'MET' : 'MISSED'}`,
    );
    if (sandbox.non2xx > 0 || prism.non2xx > 0) {
      console.log('Warning: some answers were not 2xx, so the mix was not fully valid for every target.');
    }
  } finally {
    for (const target of targets) if (target.process.exitCode === null) target.process.kill('SIGTERM');
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
