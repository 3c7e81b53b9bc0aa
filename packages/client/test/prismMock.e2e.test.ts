import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { openApiYamlPath } from '@cloud-api/spec';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CloudClient, createCloudClient } from '../src/index.js';

// Prism mocks the bundled spec but serves its paths at the root: it ignores the servers'
// `/v1` base path (checked with Prism 5.14.2, also with a copy of the spec whose server is
// http://127.0.0.1:PORT/v1). The client insists on a base URL ending in /v1, so a tiny
// loopback proxy strips `/v1` and forwards to Prism; the spec itself stays untouched.

const require = createRequire(import.meta.url);
const prismCli = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

let prism: ChildProcess | undefined;
let proxy: Server | undefined;
let client: CloudClient;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilAnswering(url: string, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline || prism?.exitCode !== null) {
        throw new Error(`Prism did not answer at ${url} within ${deadlineMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function startProxy(prismPort: number): Promise<number> {
  const server = createServer((incoming, outgoing) => {
    const url = incoming.url ?? '/';
    if (!url.startsWith('/v1/')) {
      outgoing.writeHead(404, { 'Content-Type': 'application/json' }).end('{"detail":"not under /v1"}');
      return;
    }
    const forward = httpRequest(
      {
        host: '127.0.0.1',
        port: prismPort,
        method: incoming.method,
        path: url.slice(3),
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forward);
  });
  proxy = server;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

beforeAll(async () => {
  const prismPort = await freePort();
  prism = spawn(
    process.execPath,
    [prismCli, 'mock', openApiYamlPath, '-p', String(prismPort), '-h', '127.0.0.1'],
    {
      stdio: 'ignore',
    },
  );
  await waitUntilAnswering(`http://127.0.0.1:${prismPort}/object-storage/buckets?workspace_id=1`, 45_000);
  const proxyPort = await startProxy(prismPort);
  client = createCloudClient({
    token: 'svc_dev_key_sandbox_full',
    workspaceId: '1042',
    environments: { development: `http://127.0.0.1:${proxyPort}/v1` },
    timeoutMs: 10_000,
  });
}, 60_000);

afterAll(async () => {
  prism?.kill();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
});

describe('against the Prism mock of the bundled spec', () => {
  test('ASYNC-1, BILL-1: a guarded create answers the acceptance record', async () => {
    const accepted = await client.createCloudVm({
      name: 'web-01',
      plan_id: 'plan-std-2c-4g',
      cpu: 2,
      ram_mb: 4096,
    });
    expect(accepted).toMatchObject({ status: 'accepted' });
    expect(typeof accepted.operation_id).toBe('string');
  });

  test('every helper is accepted by the mock as a valid request', async () => {
    await expect(client.listBuckets()).resolves.toBeInstanceOf(Array);
    await expect(client.checkBillingEligibility('cloud-vm-standard-2')).resolves.toHaveProperty('allowed');
    await expect(client.deleteGpuVm('vm-7f3a9c2e')).resolves.toMatchObject({ status: 'accepted' });
    await expect(client.enableGpuVmBackups('vm-7f3a9c2e', {})).resolves.toHaveProperty('retention_days');
    await expect(client.getCloudVmSnapshotRestore('rst-2b81c4d0')).resolves.toHaveProperty('restore_id');
    await expect(
      client.updateNatPortForwardingRule(
        { vpcId: 'vpc-51e0a9b3', natGatewayId: 'natgw-0c4d9e71', portForwardingRuleId: 'pfr-93ad1f27' },
        { enabled: false },
      ),
    ).resolves.toHaveProperty('port_forward_rule_id');
    await expect(client.releaseReservedIp('rip-6e2f8b14')).resolves.toBeUndefined();
  });

  test('IDEM-1: the mock rejects a create without the key the client normally adds (raw fetch)', async () => {
    const response = await fetch(`${client.baseUrl}/compute/cloud-vms?workspace_id=1042`, {
      method: 'POST',
      headers: { Authorization: 'Bearer svc_dev_key_sandbox_full', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});
