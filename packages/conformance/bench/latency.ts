/**
 * A default run against a correct sandbox whose every answer is delayed by a fixed latency, as a
 * remote environment's would be. Goal: the checks' wall time ≤ 1.5 × (requests × delay ÷
 * concurrency); start-up (before the first request, after the last answer) is printed apart.
 * A second, rate-limited run counts arrivals per second at the target: never above the limit.
 *   pnpm --filter @cloud-api/conformance run bench:latency
 * BENCH_DELAYS (ms, comma-separated, default "50,200"), BENCH_DEPTH (default 25) and
 * BENCH_RATE_LIMIT (default 20 per second) shrink it for a smoke run.
 */

import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_CONCURRENCY,
  embeddedSandboxProfile,
  loadSandboxModule,
  runConformance,
  scopeNames,
  type TargetProfile,
} from '@cloud-api/conformance';

interface SandboxWithHandle {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
}

const delays = (process.env.BENCH_DELAYS ?? '50,200').split(',').map(Number);
const depth = Number(process.env.BENCH_DEPTH ?? 25);
const rateLimit = Number(process.env.BENCH_RATE_LIMIT ?? 20);
const GOAL = 1.5;

const sandboxModule = await loadSandboxModule();
const baseProfile = embeddedSandboxProfile(sandboxModule.defaultSandboxProfile(), scopeNames());

interface Measured {
  readonly requests: number;
  readonly wallMs: number;
  /** From the first arrival to the last answer: the part latency and concurrency decide. */
  readonly checksMs: number;
  readonly arrivals: readonly number[];
  readonly passed: boolean;
  readonly concurrency: number;
}

/** A fresh sandbox (runs change its state) that answers every request `delayMs` late. */
async function measure(
  delayMs: number,
  profileChanges: Partial<TargetProfile>,
  rules?: string,
): Promise<Measured> {
  const sandbox = sandboxModule.createSandbox({ profile: baseProfile }) as unknown as SandboxWithHandle;
  const arrivals: number[] = [];
  let lastAnswer = 0;
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    res.on('finish', () => {
      lastAnswer = performance.now();
    });
    setTimeout(() => sandbox.handle(req, res), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
  try {
    const started = performance.now();
    const { outcome } = await runConformance({
      profile: { ...baseProfile, ...profileChanges, baseUrl },
      depth,
      seed: 1,
      reporters: [],
      ...(rules ? { rules } : {}),
      outDir: mkdtempSync(join(tmpdir(), 'conformance-latency-bench-')),
      print: () => undefined,
    });
    const wallMs = performance.now() - started;
    return {
      requests: arrivals.length,
      wallMs,
      checksMs: arrivals.length > 0 ? lastAnswer - (arrivals[0] as number) : 0,
      arrivals,
      passed: outcome.verdict === 'passed',
      concurrency: outcome.info.concurrency,
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The most arrivals in any one-second window. */
function busiestSecond(arrivals: readonly number[]): number {
  let most = 0;
  for (let start = 0, end = 0; end < arrivals.length; end++) {
    while ((arrivals[end] as number) - (arrivals[start] as number) >= 1000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

const rows: string[][] = [
  ['delay', 'concurrency', 'requests', 'ideal (s)', 'checks (s)', 'start-up (s)', 'ratio', 'verdict'],
];
let allMet = true;
let allPassed = true;
for (const delay of delays) {
  const run = await measure(delay, {});
  const idealMs = (run.requests * delay) / run.concurrency;
  const ratio = run.checksMs / idealMs;
  allMet &&= ratio <= GOAL;
  allPassed &&= run.passed;
  rows.push([
    `${delay} ms`,
    String(run.concurrency),
    String(run.requests),
    (idealMs / 1000).toFixed(1),
    (run.checksMs / 1000).toFixed(1),
    ((run.wallMs - run.checksMs) / 1000).toFixed(1),
    ratio.toFixed(2),
    run.passed ? 'passed' : 'NOT passed',
  ]);
}
for (const row of rows)
  process.stdout.write(`${row.map((cell, i) => (i === 0 ? cell.padEnd(8) : cell.padStart(13))).join('')}\n`);
process.stdout.write(
  `\nratio checks/ideal (ideal = requests × delay ÷ concurrency ${DEFAULT_CONCURRENCY}): goal ≤ ${GOAL} — ${allMet ? 'met' : 'NOT met'}\n`,
);

// The rate limit caps what arrives whatever the concurrency: counted at the target itself.
const limited = await measure(delays[0] ?? 50, { rateLimitPerSecond: rateLimit }, 'WS-2,AUTH-1,SCOPE-1');
const busiest = busiestSecond(limited.arrivals);
process.stdout.write(
  `rate limit ${rateLimit}/s at concurrency ${limited.concurrency}: ${limited.requests} requests, busiest second ${busiest} arrivals — ${busiest <= rateLimit ? 'within the limit' : 'LIMIT EXCEEDED'}\n`,
);
// Timing goals are read, not asserted (the machine is noisy); a correct sandbox failing, or the
// rate limit exceeded, is a defect whatever the load.
if (!allPassed || !limited.passed || busiest > rateLimit) process.exitCode = 1;
