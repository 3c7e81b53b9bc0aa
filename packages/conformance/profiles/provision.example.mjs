#!/usr/bin/env node
// Example provision command (see staging.provisioned.example.yaml): hands each conformance run
// throw-away resources of its own, so no run finds a VM or an IP that an earlier run deleted.
//
// This one takes them from a pool of IDs created ahead of time (by Terraform, an internal API, a
// nightly job): it prints the next unused ones as the profile's `resources` section and records
// them as used in <pool>.used.json, so the next run gets others. If your environment can create
// resources on demand, create them here instead. The contract is all that matters:
//   - print one JSON object shaped like `resources` on stdout, and nothing else;
//   - write log lines to stderr (the run shows them, with secrets masked);
//   - exit 0; any other exit code stops the run (exit 2) before any rule.
// The run passes CONFORMANCE_BASE_URL, CONFORMANCE_ENVIRONMENT, CONFORMANCE_WORKSPACE_ID and
// CONFORMANCE_RUN_ID, and the environment it was started with (your tokens' variables).
//
// Usage: node provision.example.mjs <pool.json>. Two runs sharing one pool at the same moment
// could take the same IDs: give each CI job its own pool.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const poolFile = process.argv[2] ?? 'resource-pool.example.json';
const usedFile = `${poolFile}.used.json`;

// What one run consumes: BACKUP-1/BACKUP-2 enable backups on up to 8 GPU VMs; ASYNC, IDEM, ISO-1
// and REFUSE-1 delete 5 GPU VMs; RESP-2, STATE-1, ISO-1 and REFUSE-1 release 4 reserved IPs. A restore is only
// read, and the NAT rule is put back after its update, so those are handed out as they are.
// Hand out only resources that exist and nothing else uses: the run trusts they were there.
const perRun = { gpuVmIds: 8, deletableGpuVmIds: 5, releasableReservedIpIds: 4 };

const pool = JSON.parse(readFileSync(poolFile, 'utf8'));
const used = new Set(existsSync(usedFile) ? JSON.parse(readFileSync(usedFile, 'utf8')) : []);

const resources = { restoreIds: pool.restoreIds ?? [], natRules: pool.natRules ?? [] };
for (const [field, count] of Object.entries(perRun)) {
  const fresh = (pool[field] ?? []).filter((id) => !used.has(id)).slice(0, count);
  if (fresh.length < count) {
    process.stderr.write(
      `${poolFile} has ${fresh.length} unused ${field}, a run needs ${count}: add fresh ones to the pool\n`,
    );
    process.exit(1);
  }
  resources[field] = fresh;
}
for (const field of Object.keys(perRun)) for (const id of resources[field]) used.add(id);
writeFileSync(usedFile, `${JSON.stringify([...used], null, 2)}\n`);

process.stderr.write(
  `handed out ${Object.keys(perRun)
    .map((f) => resources[f].join(' '))
    .join(' ')}\n`,
);
process.stdout.write(`${JSON.stringify(resources)}\n`);
