/**
 * Checked requests per second of the conformance suite vs a raw sequential fetch loop, against
 * the same in-process sandbox, in one run. Goal: suite ≥ 0.5 × raw.
 *   pnpm --filter @cloud-api/conformance run bench
 */

import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  runConformance,
  scopeNames,
} from '@cloud-api/conformance';

interface SandboxWithHandle {
  handle: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
}

const depth = Number(process.env.BENCH_DEPTH ?? 50);
const sandboxModule = await loadSandboxModule();
const profile = embeddedSandboxProfile(sandboxModule.defaultSandboxProfile(), scopeNames());
const sandbox = sandboxModule.createSandbox({ profile }) as unknown as SandboxWithHandle;
let served = 0;
const server = createServer((req, res) => {
  served++;
  sandbox.handle(req, res);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;

try {
  const started = performance.now();
  const result = await runConformance({
    profile: { ...profile, baseUrl },
    depth,
    seed: 1,
    reporters: [],
    outDir: mkdtempSync(join(tmpdir(), 'conformance-bench-')),
    print: () => undefined,
  });
  const wallMs = performance.now() - started;
  const suiteRequests = served;
  const checkMs = result.outcome.tests.reduce((sum, t) => sum + t.durationMs, 0);

  const token = profile.identities.full?.token ?? '';
  const url = `${baseUrl}/object-storage/buckets?workspace_id=${profile.workspaces.primary}`;
  served = 0;
  const rawStarted = performance.now();
  for (let i = 0; i < suiteRequests; i++) {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await response.text();
  }
  const rawMs = performance.now() - rawStarted;

  const suiteRate = suiteRequests / (checkMs / 1000);
  const suiteWallRate = suiteRequests / (wallMs / 1000);
  const rawRate = suiteRequests / (rawMs / 1000);
  const rows = [
    ['measure', 'requests', 'time (s)', 'requests/s'],
    ['suite, checks only', String(suiteRequests), (checkMs / 1000).toFixed(2), suiteRate.toFixed(0)],
    [
      'suite, whole run (vitest start-up included)',
      String(suiteRequests),
      (wallMs / 1000).toFixed(2),
      suiteWallRate.toFixed(0),
    ],
    ['raw sequential fetch loop', String(suiteRequests), (rawMs / 1000).toFixed(2), rawRate.toFixed(0)],
  ];
  for (const row of rows)
    process.stdout.write(
      `${row[0]?.padEnd(46)}${row
        .slice(1)
        .map((c) => c.padStart(12))
        .join('')}\n`,
    );
  const ratio = suiteRate / rawRate;
  process.stdout.write(
    `\nratio suite/raw (checks only): ${ratio.toFixed(2)} (goal ≥ 0.5) — ${ratio >= 0.5 ? 'met' : 'NOT met'}\n`,
  );
  process.stdout.write(`ratio suite/raw (whole run):   ${(suiteWallRate / rawRate).toFixed(2)}\n`);
  process.stdout.write(
    `rules: ${result.outcome.totals.passed} passed, ${result.outcome.totals.failed} failed (depth ${depth})\n`,
  );
} finally {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
