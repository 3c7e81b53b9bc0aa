/**
 * One process of the throughput bench (see throughput.ts), so every suite run it measures is the
 * first in its process, JIT warm-up included, while the target and Node's HTTP stack are warm.
 *   record <dir>: runs the suite once and writes the requests the target received.
 *   trial <dir> <concurrency>: warms the target with those requests sent raw, runs the suite
 *     once (cold engine) and once more (warm engine, for information), replays the requests raw
 *     and through the suite's transport alone, taking turns, and prints the measures as one JSON
 *     line.
 *   transport-cold <dir> <concurrency>: warms the target with those requests sent raw, sends them
 *     once through the suite's transport alone (its first use in the process: what any engine on
 *     this transport pays cold, before a single check), replays them raw five times, and prints
 *     the measures as one JSON line.
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSandboxModule, type Reporter, runConformance, type TargetProfile } from '@cloud-api/conformance';
import { type BenchTarget, type RecordedRequest, startBenchTarget } from './benchTarget.js';
import { createRawReplay, type RawReplay } from './rawReplay.js';
import { transportReplay } from './transportReplay.js';

/** The transport alone, cold, beside the warm raw loop (transport-cold mode). */
export interface ColdTransportMeasures {
  readonly requests: number;
  readonly coldTransportMs: number;
  readonly rawMs: number;
}

export interface TrialMeasures {
  readonly concurrency: number;
  readonly requests: number;
  /** `runConformance` from call to return: set-up, preflight, checks, reporters. */
  readonly wholeMs: number;
  /** From the first check's start to the last check's end. */
  readonly checksMs: number;
  /** Median of the raw replays of the same requests, after the suite's run. */
  readonly rawMs: number;
  /** The suite's second run in the same process (its code compiled and optimised): checks only. */
  readonly warmChecksMs: number;
  /** Median of the same requests sent one at a time through the suite's transport, checking nothing. */
  readonly transportMs: number;
  /** Share of replayed requests answered with the status the suite's own request got. */
  readonly sameStatus: number;
  readonly passed: number;
  readonly failed: number;
}

const [mode, dir, concurrencyArg] = process.argv.slice(2);
if ((mode !== 'record' && mode !== 'trial' && mode !== 'transport-cold') || !dir) {
  process.stderr.write('usage: throughputTrial.js record|trial|transport-cold <dir> [concurrency]\n');
  process.exit(2);
}
const depth = Number(process.env.BENCH_DEPTH ?? 50);
const concurrency = Number(concurrencyArg ?? 4);
const profile = JSON.parse(readFileSync(join(dir, 'profile.json'), 'utf8')) as TargetProfile;
const sandboxModule = await loadSandboxModule();
const target = await startBenchTarget(sandboxModule, profile);

/** The family of checks that must see time pass (src/checks/heldOverTime.ts). */
const HELD_OVER_TIME = 'checks/heldOverTime.ts';

async function suiteRun(on: BenchTarget) {
  on.reset();
  let firstCheck = Number.NaN;
  let lastCheck = Number.NaN;
  // The checks held over time wait on purpose (reads spread over 1.2 s, a retry once the request
  // timeout has passed): their time is left out of both figures; their few requests stay in.
  let heldMs = 0;
  const timing: Reporter = {
    name: 'bench-timing',
    onEvent(event) {
      if (event.type === 'check-start' && Number.isNaN(firstCheck)) firstCheck = performance.now();
      if (event.type === 'check-end') {
        lastCheck = performance.now();
        if (event.result.file === HELD_OVER_TIME) heldMs += event.result.durationMs;
      }
    },
  };
  const started = performance.now();
  const result = await runConformance({
    profile: { ...profile, baseUrl: on.baseUrl },
    depth,
    seed: 1,
    concurrency,
    reporters: [timing],
    outDir: mkdtempSync(join(tmpdir(), 'conformance-bench-')),
    print: () => undefined,
  });
  return {
    wholeMs: performance.now() - started - heldMs,
    checksMs: lastCheck - firstCheck - heldMs,
    requests: on.served(),
    passed: result.outcome.totals.passed,
    failed: result.outcome.totals.failed,
  };
}

type RawRun = ReturnType<RawReplay['run']>;

/** The suite cold, then warm; the raw loop and the transport alone taking turns. */
async function trial(requests: RecordedRequest[], raw: RawReplay, replay: () => RawRun): Promise<string> {
  const suite = await suiteRun(target);
  const warm = await suiteRun(target);
  const replays = [];
  const transported: number[] = [];
  for (let i = 0; i < 5; i++) {
    replays.push(await replay());
    target.reset();
    transported.push(await transportReplay(target.baseUrl, requests, 1));
  }
  raw.close();
  const median = [...replays].sort((a, b) => a.ms - b.ms)[2];
  const same = median ? median.statuses.filter((status, i) => status === requests[i]?.status).length : 0;
  const measures: TrialMeasures = {
    concurrency,
    ...suite,
    rawMs: median?.ms ?? Number.NaN,
    warmChecksMs: warm.checksMs,
    transportMs: [...transported].sort((a, b) => a - b)[2] ?? Number.NaN,
    sameStatus: same / Math.max(1, requests.length),
  };
  return JSON.stringify(measures);
}

/** The transport alone, its first use in the process, then the raw loop five times. */
async function coldTransport(
  requests: RecordedRequest[],
  raw: RawReplay,
  replay: () => RawRun,
): Promise<string> {
  target.reset();
  const coldTransportMs = await transportReplay(target.baseUrl, requests, concurrency);
  const rawRuns: number[] = [];
  for (let i = 0; i < 5; i++) rawRuns.push((await replay()).ms);
  raw.close();
  const measures: ColdTransportMeasures = {
    requests: requests.length,
    coldTransportMs,
    rawMs: [...rawRuns].sort((a, b) => a - b)[2] ?? Number.NaN,
  };
  return JSON.stringify(measures);
}

try {
  if (mode === 'record') {
    const recorded = target.record();
    await suiteRun(target);
    writeFileSync(join(dir, 'requests.json'), JSON.stringify(recorded));
  } else {
    const requests = JSON.parse(readFileSync(join(dir, 'requests.json'), 'utf8')) as RecordedRequest[];
    const raw = createRawReplay(new URL(target.baseUrl).origin);
    const replay = async () => {
      target.reset();
      return raw.run(requests);
    };
    for (let i = 0; i < 3; i++) await replay();
    const measured =
      mode === 'trial' ? await trial(requests, raw, replay) : await coldTransport(requests, raw, replay);
    process.stdout.write(`${measured}\n`);
  }
} finally {
  await target.close();
}
