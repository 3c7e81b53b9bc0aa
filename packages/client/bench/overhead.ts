// Per-request overhead on loopback: raw fetch, bare openapi-fetch and this client with every
// middleware, side by side in one run against a trivial local server. Not a test: it prints
// medians and the ratios against the goals (client <= 1.10x bare openapi-fetch, <= 1.25x fetch).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { paths } from '@cloud-api/types';
import createClient from 'openapi-fetch';
import { createCloudClient } from '../src/index.js';

const ROUNDS = 12;
const PER_ROUND = 250;
const WARMUP = 300;
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

type Variant = { name: string; run: () => Promise<unknown> };

const readVariants: Variant[] = [
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
];

const createBody = { name: 'web-01', plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 };
const createVariants: Variant[] = [
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

async function measure(variants: Variant[]): Promise<Map<string, number[]>> {
  const samples = new Map(variants.map((v) => [v.name, [] as number[]]));
  for (const variant of variants) for (let i = 0; i < WARMUP; i++) await variant.run();
  // Interleaved rounds, so drift of the machine affects every variant alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of variants) {
      const bucket = samples.get(variant.name) as number[];
      for (let i = 0; i < PER_ROUND; i++) {
        const started = performance.now();
        await variant.run();
        bucket.push(performance.now() - started);
      }
    }
  }
  return samples;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

function table(title: string, samples: Map<string, number[]>) {
  console.log(`\n${title} (${ROUNDS * PER_ROUND} requests each, median per request)`);
  for (const [name, values] of samples)
    console.log(`  ${name.padEnd(40)} ${(median(values) * 1000).toFixed(1).padStart(8)} µs`);
}

const reads = await measure(readVariants);
table('GET snapshot restore', reads);
const [raw, bareMedian, ours] = readVariants.map((v) => median(reads.get(v.name) as number[])) as [
  number,
  number,
  number,
];
const vsBare = ours / bareMedian;
const vsRaw = ours / raw;
console.log(
  `\n  client / bare openapi-fetch = ${vsBare.toFixed(3)}x   (goal <= 1.10x: ${vsBare <= 1.1 ? 'met' : 'NOT met'})`,
);
console.log(
  `  client / raw fetch          = ${vsRaw.toFixed(3)}x   (goal <= 1.25x: ${vsRaw <= 1.25 ? 'met' : 'NOT met'})`,
);

table(
  'Create cloud VM (for information: the client also sends the billing preflight)',
  await measure(createVariants),
);

server.close();
