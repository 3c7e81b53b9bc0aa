// Per-request overhead on loopback: raw fetch, bare openapi-fetch and this client with every rule,
// side by side in one run against a trivial local server. Not a test: it prints medians and the
// ratio against the goal of issue 11: the client <= 1.05x bare openapi-fetch with the same
// per-request timeout (an AbortController and a timer per request, cleared once the body is
// read, as the client does), with PASS/FAIL. The ratios to bare openapi-fetch without a timeout
// and to raw fetch are printed for information only.
//
// Fairness: the variants are interleaved request by request (A B C D, B C D A, C D A B, …), so
// drift of a shared 2-core machine (other jobs, GC, CPU frequency) reaches every variant alike,
// and no variant always runs right after the same other one. Everything is warmed up first.
// Knobs (environment): BENCH_ROUNDS (default 20), BENCH_PER_ROUND (200), BENCH_WARMUP (600).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { paths } from '@cloud-api/types';
import createClient from 'openapi-fetch';
import { createCloudClient } from '../src/index.js';

function positiveIntegerSetting(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    console.error(`${name} must be a positive whole number (got ${JSON.stringify(text)}).`);
    process.exit(2);
  }
  return value;
}

const ROUNDS = positiveIntegerSetting('BENCH_ROUNDS', 20);
const PER_ROUND = positiveIntegerSetting('BENCH_PER_ROUND', 200);
const WARMUP = positiveIntegerSetting('BENCH_WARMUP', 600);
const GOAL_VS_BARE_WITH_TIMEOUT = 1.05;

const token = 'svc_dev_key_sandbox_full';
const restoreBody = JSON.stringify({
  organization_id: 'org-1',
  workspace_id: '1042',
  restore_id: 'rst-1',
  source_vm_id: 'vm-1',
  target_mode: 'new_vm',
  recovery_point_id: 'snap-1',
  status: 'running',
});
const acceptedBody = JSON.stringify({
  operation_id: 'op-1',
  vm_id: 'vm-1',
  status: 'accepted',
  submitted_at: '2026-11-21T09:30:00Z',
});

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const url = request.url ?? '';
    const body = url.includes('/billing/')
      ? '{"allowed":true}'
      : url.includes('/cloud-vms')
        ? acceptedBody
        : restoreBody;
    response.writeHead(url.includes('/cloud-vms') ? 202 : 200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    });
    response.end(body);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

const bare = createClient<paths>({ baseUrl });
const client = createCloudClient({ token, workspaceId: '1042', environments: { development: baseUrl } });
const auth = { Authorization: `Bearer ${token}` };

interface Variant {
  readonly name: string;
  readonly run: () => Promise<unknown>;
}

/** Raw fetch, bare openapi-fetch, the client (in this order), then the goal's reference and others. */
type Variants = readonly [Variant, Variant, Variant, ...Variant[]];
const RAW = 0;
const BARE = 1;
const CLIENT = 2;
const BARE_WITH_TIMEOUT = 3;

const reads: Variants = [
  {
    name: 'raw fetch',
    run: async () =>
      (
        await fetch(`${baseUrl}/compute/cloud-vm-snapshots/restores/rst-1?workspace_id=1042`, {
          headers: auth,
        })
      ).json(),
  },
  {
    name: 'bare openapi-fetch',
    run: () =>
      bare.GET('/compute/cloud-vm-snapshots/restores/{restore_id}', {
        params: { path: { restore_id: 'rst-1' }, query: { workspace_id: '1042' } },
        headers: auth,
      }),
  },
  { name: '@cloud-api/client', run: () => client.getCloudVmSnapshotRestore('rst-1') },
  {
    name: 'bare openapi-fetch + AbortSignal timeout',
    run: async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 30_000);
      try {
        return await bare.GET('/compute/cloud-vm-snapshots/restores/{restore_id}', {
          params: { path: { restore_id: 'rst-1' }, query: { workspace_id: '1042' } },
          headers: auth,
          signal: controller.signal,
        });
      } finally {
        clearTimeout(timer);
      }
    },
  },
];

const createBody = { name: 'web-01', plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 };
const creates: Variants = [
  {
    name: 'raw fetch (create only)',
    run: async () =>
      (
        await fetch(`${baseUrl}/compute/cloud-vms?workspace_id=1042`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json', 'X-Idempotency-Key': crypto.randomUUID() },
          body: JSON.stringify(createBody),
        })
      ).json(),
  },
  {
    name: 'bare openapi-fetch (create only)',
    run: () =>
      bare.POST('/compute/cloud-vms', {
        params: { query: { workspace_id: '1042' }, header: { 'X-Idempotency-Key': crypto.randomUUID() } },
        headers: auth,
        body: createBody,
      }),
  },
  { name: '@cloud-api/client (preflight + create)', run: () => client.createCloudVm(createBody) },
];

/** Per variant: every sample (µs) and each round's median (µs). */
interface Samples {
  readonly all: number[][];
  readonly roundMedians: number[][];
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

async function measure(
  variants: Variants,
  rounds: number,
  perRound: number,
  warmup: number,
): Promise<Samples> {
  const all: number[][] = variants.map(() => []);
  const roundMedians: number[][] = variants.map(() => []);
  // Warm-up: the same interleaving, nothing recorded (JIT, connection pool, server).
  for (let i = 0; i < warmup; i++) for (const variant of variants) await variant.run();
  for (let round = 0; round < rounds; round++) {
    const thisRound: number[][] = variants.map(() => []);
    for (let i = 0; i < perRound; i++) {
      for (let step = 0; step < variants.length; step++) {
        const index = (i + step) % variants.length;
        const started = performance.now();
        await (variants[index] as Variant).run();
        (thisRound[index] as number[]).push((performance.now() - started) * 1000);
      }
    }
    thisRound.forEach((values, index) => {
      (all[index] as number[]).push(...values);
      (roundMedians[index] as number[]).push(median(values));
    });
  }
  return { all, roundMedians };
}

const micros = (value: number) => `${value.toFixed(1).padStart(7)} µs`;
const times = (value: number) => `${value.toFixed(3)}x`;
// The goal lines show one digit more, so a ratio just over a goal never reads as equal to it.
const goalTimes = (value: number) => `${value.toFixed(4)}x`;
const verdict = (ratio: number, goal: number) => (ratio <= goal ? 'PASS' : 'FAIL');

function table(title: string, variants: Variants, samples: Samples, requests: number): number[] {
  console.log(`\n${title} (${requests} requests per variant, interleaved; median per request)`);
  const medians = samples.all.map(median);
  variants.forEach((variant, index) => {
    console.log(`  ${variant.name.padEnd(40)} ${micros(medians[index] as number)}`);
  });
  return medians;
}

/** The ratio of two variants in each round, to show how stable the overall ratio is. */
function roundRatioSpread(samples: Samples, over: number, under: number): string {
  const ratios = (samples.roundMedians[over] as number[]).map(
    (value, round) => value / ((samples.roundMedians[under] as number[])[round] as number),
  );
  const sorted = [...ratios].sort((a, b) => a - b);
  return `per round: median ${times(median(ratios))}, range ${times(sorted[0] as number)}–${times(sorted[sorted.length - 1] as number)}`;
}

console.log(
  `Node ${process.version}, ${ROUNDS} rounds x ${PER_ROUND} requests per variant, ${WARMUP} warm-up requests each.`,
);

const readSamples = await measure(reads, ROUNDS, PER_ROUND, WARMUP);
const readMedians = table('GET snapshot restore', reads, readSamples, ROUNDS * PER_ROUND);
const at = (index: number) => readMedians[index] as number;
const [raw, bareMedian, ours, bareTimed] = [at(RAW), at(BARE), at(CLIENT), at(BARE_WITH_TIMEOUT)];
const vsBareTimed = ours / bareTimed;
console.log("\n  Goal (median of all samples; per round: spread of the ratio of each round's medians)");
console.log(
  `  client / bare openapi-fetch + timeout = ${goalTimes(vsBareTimed)}  goal <= ${GOAL_VS_BARE_WITH_TIMEOUT.toFixed(2)}x  ${verdict(vsBareTimed, GOAL_VS_BARE_WITH_TIMEOUT)}   (${roundRatioSpread(readSamples, CLIENT, BARE_WITH_TIMEOUT)})`,
);
console.log('\n  For information');
console.log(
  `  client / bare openapi-fetch           = ${goalTimes(ours / bareMedian)}   (${roundRatioSpread(readSamples, CLIENT, BARE)})`,
);
console.log(
  `  client / raw fetch                    = ${goalTimes(ours / raw)}   (${roundRatioSpread(readSamples, CLIENT, RAW)})`,
);

const createRounds = Math.max(1, Math.round(ROUNDS / 2));
const createSamples = await measure(creates, createRounds, PER_ROUND, Math.round(WARMUP / 4));
table(
  'Create cloud VM (for information: the client also sends the billing preflight first)',
  creates,
  createSamples,
  createRounds * PER_ROUND,
);

server.close();
