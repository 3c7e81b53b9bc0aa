import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BillingBlockedError,
  createCloudClient,
  TokenEnvironmentError,
  WorkspaceIdError,
} from '../src/index.js';
import { devBaseUrl, devToken, environments, json, preflightThen, stubFetch } from './stubFetch.js';

const vm = { name: 'web-01', plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 };
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const client = (fetch: ReturnType<typeof stubFetch>) =>
  createCloudClient({ environments, token: devToken, workspaceId: '1042', fetch, retry: { baseDelayMs: 0 } });

/** A middleware that rewrites every request it sees with `change`. */
function rewriting(change: (url: URL, headers: Headers) => void): Middleware {
  return {
    onRequest({ request }) {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      change(url, headers);
      return new Request(url, {
        method: request.method,
        headers,
        body: request.body,
        duplex: 'half',
      } as RequestInit);
    },
  };
}

describe('the rules run in the transport, after every caller middleware', () => {
  test('AUTH-1: a middleware that strips Authorization (or sets another) cannot get the request sent without the client token', async () => {
    const fetch = stubFetch(() => json(200, { buckets: [] }));
    const c = client(fetch);
    c.api.use({
      onRequest({ request }) {
        request.headers.delete('Authorization');
      },
    });
    c.api.use(rewriting((_, headers) => headers.set('Authorization', 'Bearer svc_dev_key_someone_else')));
    await c.listBuckets();
    await c.api.GET('/object-storage/buckets');
    expect(fetch.sent.map((sent) => sent.headers.get('Authorization'))).toEqual([
      `Bearer ${devToken}`,
      `Bearer ${devToken}`,
    ]);
  });

  test('AUTH-1: a caller middleware never sees the token (the rules add it after)', async () => {
    const seen: (string | null)[] = [];
    const c = client(stubFetch(() => json(200, { buckets: [] })));
    c.api.use({
      onRequest({ request }) {
        seen.push(request.headers.get('Authorization'));
      },
    });
    await c.listBuckets();
    expect(seen).toEqual([null]);
  });

  test.each([
    ['0', '0'],
    ['a leading zero', '007'],
    ['a second value', '1042&workspace_id=77'],
  ])('WS-2: a middleware that sets workspace_id to %s cannot get the request sent', async (_, value) => {
    const fetch = stubFetch(preflightThen({ allowed: true }));
    const c = client(fetch);
    c.api.use(
      rewriting((url) => {
        url.search = `?workspace_id=${value}`;
      }),
    );
    await expect(c.listBuckets()).rejects.toBeInstanceOf(WorkspaceIdError);
    await expect(c.createCloudVm(vm)).rejects.toBeInstanceOf(WorkspaceIdError);
    expect(fetch.sent).toEqual([]);
  });

  test('IDEM-1: a middleware that removes X-Idempotency-Key cannot get a VM create or delete sent without one', async () => {
    const fetch = stubFetch(preflightThen({ allowed: true }));
    const c = client(fetch);
    c.api.use({
      onRequest({ request }) {
        request.headers.delete('X-Idempotency-Key');
      },
    });
    await c.deleteGpuVm('gpu-1', { idempotencyKey: 'replay-1' });
    await c.createCloudVm(vm);
    await c.api.DELETE('/compute/gpu-vms/{vm_id}', { params: { path: { vm_id: 'gpu-2' } } });
    const keyed = fetch.sent.filter((sent) => !sent.path.endsWith('/billing/resource-eligibility'));
    expect(keyed.map((sent) => sent.path)).toEqual([
      '/v1/compute/gpu-vms/gpu-1',
      '/v1/compute/cloud-vms',
      '/v1/compute/gpu-vms/gpu-2',
    ]);
    for (const sent of keyed) expect(sent.headers.get('X-Idempotency-Key')).toMatch(uuid);
  });

  test('ENV-1: a middleware that points a request at the other environment cannot get it sent', async () => {
    const fetch = stubFetch();
    const c = client(fetch);
    c.api.use(
      rewriting((url) => {
        url.host = 'api.cloud.invalid';
      }),
    );
    await expect(c.listBuckets()).rejects.toBeInstanceOf(TokenEnvironmentError);
    expect(fetch.sent).toEqual([]);
  });

  test('BILL-1: the preflight asks about the create as a middleware left it, and a denied create is not sent', async () => {
    const fetch = stubFetch(preflightThen({ allowed: false }));
    const c = client(fetch);
    c.api.use({
      async onRequest({ request }) {
        if (!request.url.includes('/cloud-vms')) return undefined;
        const body = { ...(await request.clone().json()), plan_id: 'plan-gpu-8x' };
        return new Request(request, { body: JSON.stringify(body) });
      },
    });
    await expect(c.createCloudVm(vm)).rejects.toBeInstanceOf(BillingBlockedError);
    expect(fetch.sent.map((sent) => [sent.path, sent.body])).toEqual([
      ['/v1/billing/resource-eligibility', JSON.stringify({ sku_code: 'plan-gpu-8x' })],
    ]);
  });

  test('a middleware that returns a real Request still has it sent, rules applied', async () => {
    const fetch = stubFetch(() => json(200, { buckets: [] }));
    const c = client(fetch);
    const tracing: Middleware = {
      onRequest({ request }) {
        return new Request(request, { headers: { 'X-Trace': 't-1' } });
      },
    };
    c.api.use(tracing);
    await c.api.GET('/object-storage/buckets', { middleware: [tracing] });
    c.api.eject(tracing);
    await c.listBuckets();
    expect(
      fetch.sent.map((sent) => [sent.headers.get('X-Trace'), sent.headers.get('Authorization')]),
    ).toEqual([
      ['t-1', `Bearer ${devToken}`],
      [null, `Bearer ${devToken}`],
    ]);
  });

  test('every middleware, registered or per call, is handed a real Request, for helpers and raw calls alike', async () => {
    const seen: string[] = [];
    const inspecting: Middleware = {
      onRequest({ request }) {
        seen.push(
          `${request.method} ${request instanceof Request ? 'Request' : (request as object).constructor.name}`,
        );
      },
    };
    const fetch = stubFetch(preflightThen({ allowed: true }));
    const c = client(fetch);
    await c.api.GET('/object-storage/buckets', { middleware: [inspecting] });
    c.api.use(inspecting);
    await c.createCloudVm(vm);
    await c.api.DELETE('/compute/gpu-vms/{vm_id}', { params: { path: { vm_id: 'gpu-1' } } });
    c.api.eject(inspecting);
    await c.listBuckets();
    expect(seen).toEqual(['GET Request', 'POST Request', 'POST Request', 'DELETE Request']);
    expect(fetch.sent).toHaveLength(5);
  });
});

describe('the operation is recognised from the URL actually sent', () => {
  const spellings = [
    '/compute/cloud-vms/',
    '/compute//cloud-vms',
    '/compute/cloud%2Dvms',
    '/compute/x/../cloud-vms',
    '/compute/x/%2e%2E/cloud-vms',
  ];
  test.each(spellings)(
    'BILL-1: a raw create spelt %s still waits for the preflight and is not sent when denied',
    async (spelling) => {
      const fetch = stubFetch(preflightThen({ allowed: false }));
      const untyped = client(fetch).api as unknown as {
        POST(path: string, init: Record<string, unknown>): Promise<unknown>;
      };
      await expect(untyped.POST(spelling, { body: vm })).rejects.toBeInstanceOf(BillingBlockedError);
      expect(fetch.sent.map((sent) => sent.path)).toEqual(['/v1/billing/resource-eligibility']);
    },
  );

  test('ENV-1: a path that climbs out of the base URL is refused before sending', async () => {
    const fetch = stubFetch();
    const untyped = client(fetch).api as unknown as {
      GET(path: string, init?: Record<string, unknown>): Promise<unknown>;
    };
    await expect(untyped.GET('/../admin')).rejects.toBeInstanceOf(TokenEnvironmentError);
    await expect(untyped.GET('/%2e%2e/admin')).rejects.toBeInstanceOf(TokenEnvironmentError);
    expect(fetch.sent).toEqual([]);
  });

  test('WS-2: a fragment that hides the query is refused before sending', async () => {
    const fetch = stubFetch(preflightThen({ allowed: true }));
    const untyped = client(fetch).api as unknown as {
      POST(path: string, init: Record<string, unknown>): Promise<unknown>;
    };
    await expect(untyped.POST('/compute/cloud-vms#', { body: vm })).rejects.toBeInstanceOf(WorkspaceIdError);
    expect(fetch.sent).toEqual([]);
  });

  test('BILL-1: a per-call fetch goes through the rules too (auth, key, preflight)', async () => {
    const clientFetch = stubFetch();
    const callFetch = stubFetch(preflightThen({ allowed: false }));
    const c = client(clientFetch);
    await expect(c.api.POST('/compute/cloud-vms', { body: vm, fetch: callFetch })).rejects.toBeInstanceOf(
      BillingBlockedError,
    );
    expect(clientFetch.sent.map((sent) => sent.path)).toEqual(['/v1/billing/resource-eligibility']);
    expect(callFetch.sent).toEqual([]);

    const allowing = stubFetch(preflightThen({ allowed: true }));
    await c.api.DELETE('/compute/gpu-vms/{vm_id}', { params: { path: { vm_id: 'gpu-1' } }, fetch: allowing });
    expect(allowing.sent.map((sent) => sent.url.href)).toEqual([
      `${devBaseUrl}/compute/gpu-vms/gpu-1?workspace_id=1042`,
    ]);
    expect(allowing.sent[0]?.headers.get('Authorization')).toBe(`Bearer ${devToken}`);
    expect(allowing.sent[0]?.headers.get('X-Idempotency-Key')).toMatch(uuid);
  });

  test("a caller's fetch is handed a real Request", async () => {
    const received: unknown[] = [];
    const c = createCloudClient({
      environments,
      token: devToken,
      workspaceId: '1042',
      fetch: async (request) => {
        received.push(request);
        return json(200, { buckets: [] });
      },
    });
    await c.listBuckets();
    await c.api.GET('/object-storage/buckets');
    expect(received).toHaveLength(2);
    for (const request of received) expect(request).toBeInstanceOf(Request);
  });
});

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

describe('with the global fetch, on loopback', () => {
  let server: Server;
  let baseUrl = '';
  const received: Received[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = request.url ?? '';
        received.push({
          method: request.method ?? '',
          url,
          headers: request.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const body = url.includes('/billing/')
          ? { allowed: true }
          : { operation_id: 'op-1', vm_id: 'vm-1', status: 'accepted', submitted_at: '2026-11-21T09:30:00Z' };
        response.writeHead(url.includes('/billing/') ? 200 : 202, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('sends method, URL, headers and body of each request exactly once, with or without caller middleware', async () => {
    const c = createCloudClient({
      token: devToken,
      workspaceId: '1042',
      environments: { development: baseUrl },
    });
    received.length = 0;
    await c.createCloudVm(vm, { idempotencyKey: 'create-1' });
    c.api.use({
      onRequest({ request }) {
        request.headers.delete('X-Idempotency-Key');
      },
    });
    await c.deleteGpuVm('gpu-1', { workspaceId: 77 });
    expect(received.map((r) => [r.method, r.url, r.body])).toEqual([
      [
        'POST',
        '/v1/billing/resource-eligibility?workspace_id=1042',
        JSON.stringify({ sku_code: vm.plan_id }),
      ],
      ['POST', '/v1/compute/cloud-vms?workspace_id=1042', JSON.stringify(vm)],
      ['DELETE', '/v1/compute/gpu-vms/gpu-1?workspace_id=77', ''],
    ]);
    for (const r of received) expect(r.headers.authorization).toBe(`Bearer ${devToken}`);
    expect(received[0]?.headers['content-type']).toBe('application/json');
    expect(received[1]?.headers['x-idempotency-key']).toBe('create-1');
    expect(received[2]?.headers['x-idempotency-key']).toMatch(uuid);
  });

  test('a caller abort right after the call sends nothing', async () => {
    const c = createCloudClient({
      token: devToken,
      workspaceId: '1042',
      environments: { development: baseUrl },
    });
    received.length = 0;
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const pending = c.listBuckets({ signal: controller.signal });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(received).toEqual([]);
  });
});
