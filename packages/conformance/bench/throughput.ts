/**
 * Checked requests per second of the conformance suite vs a raw sequential node:http loop (the
 * client the suite itself uses) sending the very same requests, against the same in-process
 * sandbox, measured side by side in one process. Goals (issue 20): checks only ≥ 0.5 × raw, whole
 * run ≥ 0.4 × raw, at the default concurrency; concurrency 1 is printed for information.
 *
 * A first process runs the suite once and records the requests the sandbox received. Then each
 * trial is a fresh process that warms the sandbox and Node's HTTP stack by replaying those
 * requests raw, runs the suite once (its first run in the process: the engine's start-up and JIT
 * warm-up are in it), and replays the requests raw five more times (their median is the
 * baseline). Trials repeat (BENCH_TRIALS, default 3) and the medians are printed, because the
 * machine is noisy.
 *   pnpm --filter @cloud-api/conformance run bench
 * BENCH_DEPTH (default 50) and BENCH_TRIALS shrink it for a smoke run.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_CONCURRENCY,
  embeddedSandboxProfile,
  loadSandboxModule,
  scopeNames,
} from '@cloud-api/conformance';
import type { ColdTransportMeasures, TrialMeasures } from './throughputTrial.js';

const trials = Math.max(1, Number(process.env.BENCH_TRIALS ?? 3));
const trialScript = fileURLToPath(new URL('./throughputTrial.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'conformance-throughput-'));
const sandboxModule = await loadSandboxModule();
writeFileSync(
  join(dir, 'profile.json'),
  JSON.stringify(embeddedSandboxProfile(sandboxModule.defaultSandboxProfile(), scopeNames())),
);

const trialProcess = (...args: string[]): string =>
  execFileSync(process.execPath, [trialScript, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });

trialProcess('record', dir);
const measured: TrialMeasures[] = [];
for (let i = 0; i < trials; i++) {
  measured.push(JSON.parse(trialProcess('trial', dir, String(DEFAULT_CONCURRENCY))) as TrialMeasures);
  if (i === 0) measured.push(JSON.parse(trialProcess('trial', dir, '1')) as TrialMeasures);
}
// What the suite's transport alone costs in its first use in a process: a floor under the cold
// suite's ratio that no check design removes.
const coldTransport = JSON.parse(
  trialProcess('transport-cold', dir, String(DEFAULT_CONCURRENCY)),
) as ColdTransportMeasures;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};
const at = (concurrency: number) => measured.filter((m) => m.concurrency === concurrency);
const ratios = (runs: TrialMeasures[]) => ({
  checks: median(runs.map((m) => m.rawMs / m.checksMs)),
  whole: median(runs.map((m) => m.rawMs / m.wholeMs)),
});

const rows: (readonly [string, number, number])[] = [];
for (const m of measured) {
  const label = `concurrency ${m.concurrency}`;
  rows.push([`suite, checks only (${label})`, m.requests, m.checksMs]);
  rows.push([`suite, whole run (${label}, start-up included)`, m.requests, m.wholeMs]);
  rows.push(['raw loop, same requests (median of 5)', m.requests, m.rawMs]);
  rows.push(['  for information: suite, second run (warm), checks only', m.requests, m.warmChecksMs]);
  rows.push(["  for information: the suite's transport alone (median of 5)", m.requests, m.transportMs]);
}
rows.push([
  `  for information: the suite's transport alone, cold (concurrency ${DEFAULT_CONCURRENCY})`,
  coldTransport.requests,
  coldTransport.coldTransportMs,
]);
rows.push([
  'raw loop, same requests (median of 5, same process)',
  coldTransport.requests,
  coldTransport.rawMs,
]);
process.stdout.write(
  `${'measure'.padEnd(70)}${['requests', 'time (s)', 'requests/s'].map((h) => h.padStart(12)).join('')}\n`,
);
for (const [name, requests, ms] of rows)
  process.stdout.write(
    `${name.padEnd(70)}${[String(requests), (ms / 1000).toFixed(2), (requests / (ms / 1000)).toFixed(0)].map((c) => c.padStart(12)).join('')}\n`,
  );

const main = ratios(at(DEFAULT_CONCURRENCY));
const sequential = ratios(at(1));
const verdict = (ratio: number, goal: number): string =>
  `(goal ≥ ${goal}) — ${ratio >= goal ? 'met' : 'NOT met'}`;
const seen = at(DEFAULT_CONCURRENCY).map((m) => m.rawMs / m.wholeMs);
process.stdout.write(
  `\nratio suite/raw (checks only): ${main.checks.toFixed(2)} ${verdict(main.checks, 0.5)}\n` +
    `ratio suite/raw (whole run):   ${main.whole.toFixed(2)} ${verdict(main.whole, 0.4)}\n` +
    `medians of ${trials} trial(s) at concurrency ${DEFAULT_CONCURRENCY}; whole-run ratios seen: ${seen.map((r) => r.toFixed(2)).join(', ')}\n` +
    `for information, at concurrency 1: checks only ${sequential.checks.toFixed(2)}, whole run ${sequential.whole.toFixed(2)}\n` +
    `for information, where the time goes (raw loop / measure, medians at concurrency ${DEFAULT_CONCURRENCY}): the suite's transport alone ${median(at(DEFAULT_CONCURRENCY).map((m) => m.rawMs / m.transportMs)).toFixed(2)}, the suite's checks on a warm engine ${median(at(DEFAULT_CONCURRENCY).map((m) => m.rawMs / m.warmChecksMs)).toFixed(2)}, on a cold engine ${main.checks.toFixed(2)}; the suite's transport alone, cold, with no check at all: ${(coldTransport.rawMs / coldTransport.coldTransportMs).toFixed(2)}\n` +
    `raw replays answered as the suite's requests were: ${(Math.min(...measured.map((m) => m.sameStatus)) * 100).toFixed(1)} % or more\n` +
    `rules: ${measured.reduce((s, m) => s + m.passed, 0)} passed, ${measured.reduce((s, m) => s + m.failed, 0)} failed (${measured.length} runs, depth ${process.env.BENCH_DEPTH ?? 50})\n`,
);
