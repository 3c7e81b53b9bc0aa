/**
 * Checked requests per second of the conformance suite vs a raw sequential node:http loop (the
 * client the suite itself uses), against the same in-process sandbox, in one run. Both are
 * measured once the sandbox and Node's HTTP stack are warm; the suite's run is its first in the
 * process, so the engine's own start-up and warm-up are in it. Goals (issue 20): checks only ≥ 0.5 × raw, whole run ≥ 0.4 × raw,
 * at the default concurrency; concurrency 1 is printed for information.
 *   pnpm --filter @cloud-api/conformance run bench
 * BENCH_DEPTH (default 50) shrinks it for a smoke run.
 */

import { mkdtempSync } from 'node:fs';
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_CONCURRENCY,
  embeddedSandboxProfile,
  loadSandboxModule,
  runConformance,
  scopeNames,
} from '@cloud-api/conformance';

interface SandboxWithHandle {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
}

const depth = Number(process.env.BENCH_DEPTH ?? 50);
const sandboxModule = await loadSandboxModule();
const profile = embeddedSandboxProfile(sandboxModule.defaultSandboxProfile(), scopeNames());
const freshSandbox = (): SandboxWithHandle =>
  sandboxModule.createSandbox({ profile }) as unknown as SandboxWithHandle;
let sandbox = freshSandbox();
let served = 0;
const server = createServer((req, res) => {
  served++;
  sandbox.handle(req, res);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;

/** One default run against a fresh sandbox (a run consumes resources it deletes or releases). */
async function suiteRun(concurrency: number) {
  sandbox = freshSandbox();
  served = 0;
  const started = performance.now();
  const result = await runConformance({
    profile: { ...profile, baseUrl },
    depth,
    seed: 1,
    concurrency,
    reporters: [],
    outDir: mkdtempSync(join(tmpdir(), 'conformance-bench-')),
    print: () => undefined,
  });
  return {
    requests: served,
    wallMs: performance.now() - started,
    checkMs: result.outcome.tests.reduce((sum, t) => sum + t.durationMs, 0),
    passed: result.outcome.totals.passed,
    failed: result.outcome.totals.failed,
  };
}

const agent = new Agent({ keepAlive: true });
const token = profile.identities.full?.token ?? '';
const url = `${baseUrl}/object-storage/buckets?workspace_id=${profile.workspaces.primary}`;
/** The raw loop: one request at a time, body read, nothing checked. */
async function rawLoop(requests: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < requests; i++)
    await new Promise<void>((resolve, reject) => {
      request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
        response
          .on('data', () => undefined)
          .on('end', resolve)
          .on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  return performance.now() - started;
}

try {
  // Warm the target and the HTTP stack on both sides, so neither measure pays for their JIT.
  await rawLoop(3000);
  const suite = await suiteRun(DEFAULT_CONCURRENCY);
  const sequential = await suiteRun(1);
  const rawMs = await rawLoop(suite.requests);
  const rate = (requests: number, ms: number): number => requests / (ms / 1000);
  const rawRate = rate(suite.requests, rawMs);
  const rows = [
    ['measure', 'requests', 'time (s)', 'requests/s'],
    ...[
      [`suite, checks only (concurrency ${DEFAULT_CONCURRENCY})`, suite.requests, suite.checkMs],
      [
        `suite, whole run (concurrency ${DEFAULT_CONCURRENCY}, start-up included)`,
        suite.requests,
        suite.wallMs,
      ],
      ['suite, checks only (concurrency 1)', sequential.requests, sequential.checkMs],
      ['suite, whole run (concurrency 1)', sequential.requests, sequential.wallMs],
      ["raw sequential node:http loop (the suite's client)", suite.requests, rawMs],
    ].map(([name, requests, ms]) => [
      String(name),
      String(requests),
      ((ms as number) / 1000).toFixed(2),
      rate(requests as number, ms as number).toFixed(0),
    ]),
  ];
  for (const row of rows)
    process.stdout.write(
      `${row[0]?.padEnd(60)}${row
        .slice(1)
        .map((c) => c.padStart(12))
        .join('')}\n`,
    );
  const checksRatio = rate(suite.requests, suite.checkMs) / rawRate;
  const wholeRatio = rate(suite.requests, suite.wallMs) / rawRate;
  const verdict = (ratio: number, goal: number): string =>
    `(goal ≥ ${goal}) — ${ratio >= goal ? 'met' : 'NOT met'}`;
  process.stdout.write(
    `\nratio suite/raw (checks only): ${checksRatio.toFixed(2)} ${verdict(checksRatio, 0.5)}\n`,
  );
  process.stdout.write(
    `ratio suite/raw (whole run):   ${wholeRatio.toFixed(2)} ${verdict(wholeRatio, 0.4)}\n`,
  );
  process.stdout.write(
    `for information, at concurrency 1: checks only ${(rate(sequential.requests, sequential.checkMs) / rawRate).toFixed(2)}, whole run ${(rate(sequential.requests, sequential.wallMs) / rawRate).toFixed(2)}\n`,
  );
  process.stdout.write(
    `rules: ${suite.passed + sequential.passed} passed, ${suite.failed + sequential.failed} failed (two runs, depth ${depth})\n`,
  );
} finally {
  agent.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
