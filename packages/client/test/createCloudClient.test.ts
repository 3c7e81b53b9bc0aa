import { describe, expect, test } from 'vitest';
import {
  ApiError,
  BaseUrlError,
  BillingBlockedError,
  ClientConfigError,
  type ClientLogEntry,
  createCloudClient,
  InvalidRequestError,
  NetworkError,
  OperationDeadlineError,
  RequestTimeoutError,
  TokenEnvironmentError,
  WorkspaceIdError,
} from '../src/index.js';
import {
  acceptance,
  devBaseUrl,
  devToken,
  environments,
  hang,
  json,
  networkFailure,
  preflightThen,
  prodToken,
  stubFetch,
} from './stubFetch.js';

const natRule = { vpcId: 'vpc-1', natGatewayId: 'natgw-1', portForwardingRuleId: 'pfr-1' };

function client(
  fetch: ReturnType<typeof stubFetch>,
  extra: Partial<Parameters<typeof createCloudClient>[0]> = {},
) {
  return createCloudClient({
    environments,
    token: devToken,
    workspaceId: '1042',
    fetch,
    retry: { baseDelayMs: 0 },
    ...extra,
  });
}

describe('configuration', () => {
  test('ENV-2: binds a development token to the development base URL it is given', () => {
    const c = client(stubFetch());
    expect(c.environment).toBe('development');
    expect(c.baseUrl).toBe(devBaseUrl);
    const production = { production: 'https://api.example.test/v1' };
    expect(createCloudClient({ token: prodToken, workspaceId: 1, environments: production }).baseUrl).toBe(
      'https://api.example.test/v1',
    );
  });

  test("issue 11 #6: a client left on the spec's placeholder host is refused at construction, naming the option to set", () => {
    for (const [token, option] of [
      [devToken, 'environments.development'],
      [prodToken, 'environments.production'],
    ] as const) {
      const attempt = () => createCloudClient({ token, workspaceId: '1042', fetch: stubFetch() });
      expect(attempt).toThrow(BaseUrlError);
      expect(attempt).toThrow(`Set \`${option}\``);
      expect(attempt).toThrow(/placeholder that can never be reached/);
    }
    // Only the token's own environment needs a real URL.
    const development = { development: 'http://127.0.0.1:9/v1' };
    expect(
      createCloudClient({ token: devToken, workspaceId: '1042', environments: development }).baseUrl,
    ).toBe('http://127.0.0.1:9/v1');
  });

  test('ENV-1: refuses a token with neither prefix, without echoing it', () => {
    const attempt = () => createCloudClient({ token: 'other_FAKEnotAreal_secret', workspaceId: '1' });
    expect(attempt).toThrow(TokenEnvironmentError);
    expect(attempt).toThrow(/neither `svc_prod_key_` or `svc_dev_key_`/);
    expect(attempt).not.toThrow(/FAKEnotAreal/);
    expect(() => createCloudClient({ token: 'svc_dev_key_', workspaceId: '1' })).toThrow(
      TokenEnvironmentError,
    );
    expect(() => createCloudClient({ token: 'svc_dev_key_with space', workspaceId: '1' })).toThrow(
      /whitespace/,
    );
  });

  test('ENV-1: refuses the other environment as baseUrl, and an unnamed base URL', () => {
    expect(() =>
      createCloudClient({ token: devToken, workspaceId: '1', baseUrl: 'https://api.cloud.invalid/v1' }),
    ).toThrow(/is the production base URL, but the token is a development token/);
    expect(() =>
      createCloudClient({ token: devToken, workspaceId: '1', baseUrl: 'https://other.test/v1' }),
    ).toThrow(/environments: \{ development: 'https:\/\/other.test\/v1' \}/);
    const named = createCloudClient({
      token: devToken,
      workspaceId: '1',
      environments: { development: 'http://127.0.0.1:4010/v1/' },
      baseUrl: 'http://127.0.0.1:4010/v1',
    });
    expect(named.baseUrl).toBe('http://127.0.0.1:4010/v1');
  });

  test('ENV-2: refuses a base URL that does not end with /v1', () => {
    expect(() =>
      createCloudClient({
        token: devToken,
        workspaceId: '1',
        environments: { development: 'https://x.test/v2' },
      }),
    ).toThrow(BaseUrlError);
    expect(() =>
      createCloudClient({ token: devToken, workspaceId: '1', environments: { development: 'x.test/v1' } }),
    ).toThrow(/not an absolute URL/);
  });

  test('refuses unusable retry, timeout and workspace settings with the option named', () => {
    const base = { token: devToken, environments };
    expect(() => createCloudClient({ ...base, workspaceId: '1', retry: { attempts: 0 } })).toThrow(
      ClientConfigError,
    );
    expect(() => createCloudClient({ ...base, workspaceId: '1', timeoutMs: -5 })).toThrow(/timeoutMs/);
    expect(() => createCloudClient({ ...base, workspaceId: '007' })).toThrow(/without leading zeros: "7"/);
    expect(() => createCloudClient({ ...base, workspaceId: '007' })).toThrow(WorkspaceIdError);
  });

  test('the client object serialises without secrets', () => {
    const c = client(stubFetch());
    expect(JSON.parse(JSON.stringify(c))).toEqual({
      api: {},
      environment: 'development',
      baseUrl: devBaseUrl,
      workspaceId: '1042',
    });
  });
});

describe('requests', () => {
  test('AUTH-1: sends Bearer auth on every request, replacing a caller-set Authorization', async () => {
    const fetch = stubFetch(() => json(200, []));
    const c = client(fetch);
    await c.listBuckets();
    await c.api.GET('/object-storage/buckets', { headers: { Authorization: 'Basic Zm9vOmJhcg==' } });
    expect(fetch.sent.map((s) => s.headers.get('Authorization'))).toEqual([
      `Bearer ${devToken}`,
      `Bearer ${devToken}`,
    ]);
  });

  test('WS-1: adds the client workspace, and a call may override it', async () => {
    const fetch = stubFetch(() => json(200, []));
    const c = client(fetch);
    await c.listBuckets();
    await c.listBuckets({ workspaceId: 77 });
    await c.api.GET('/object-storage/buckets', { params: { query: { workspace_id: '88' } } });
    expect(fetch.sent.map((s) => s.url.search)).toEqual([
      '?workspace_id=1042',
      '?workspace_id=77',
      '?workspace_id=88',
    ]);
  });

  test('sends path parameters, body and method of each helper as the spec says', async () => {
    const fetch = stubFetch((sent) =>
      sent.method === 'DELETE' && sent.path.includes('reserved')
        ? new Response(null, { status: 204 })
        : json(200, {}),
    );
    const c = client(fetch);
    await c.enableGpuVmBackups('vm 1');
    await c.updateNatPortForwardingRule(natRule, { enabled: false });
    await c.getCloudVmSnapshotRestore('rst-1');
    await expect(c.releaseReservedIp('rip-1')).resolves.toBeUndefined();
    expect(fetch.sent.map((s) => `${s.method} ${s.path} ${s.body}`)).toEqual([
      'POST /v1/compute/gpu-vms/vm%201/backups/enable {}',
      'PATCH /v1/networking/vpcs/vpc-1/nat-gateways/natgw-1/port-forwarding-rules/pfr-1 {"enabled":false}',
      'GET /v1/compute/cloud-vm-snapshots/restores/rst-1 ',
      'DELETE /v1/networking/reserved-ips/rip-1 ',
    ]);
  });

  test('IDEM-1: adds a UUID key to VM create and delete only, keeps a caller key, refuses an empty one', async () => {
    const fetch = stubFetch(preflightThen({ allowed: true }));
    const c = client(fetch);
    await c.deleteGpuVm('vm-1');
    await c.deleteGpuVm('vm-1', { idempotencyKey: 'replay-1' });
    await c.createCloudVm({ plan_id: 'plan-1' }, { idempotencyKey: 'replay-2' });
    await c.releaseReservedIp('rip-1').catch(() => undefined);
    const keys = fetch.sent.map((s) => s.headers.get('X-Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys.slice(1)).toEqual(['replay-1', null, 'replay-2', null]);
    await expect(c.deleteGpuVm('vm-1', { idempotencyKey: ' ' })).rejects.toThrow(InvalidRequestError);
    expect(fetch.sent).toHaveLength(5);
  });
});

describe('retries and timeouts', () => {
  test('never retries 4xx (but 429) or 500: returned after one attempt, even for keyed requests', async () => {
    for (const status of [400, 401, 403, 404, 409, 500]) {
      const fetch = stubFetch(() => json(status, { detail: 'no' }));
      await expect(client(fetch).deleteGpuVm('vm-1')).rejects.toMatchObject({ status });
      expect(fetch.sent).toHaveLength(1);
    }
  });

  test('retries a read on network failure, never a write without a key', async () => {
    const flaky = (failures: number) =>
      stubFetch((_, i) => (i < failures ? networkFailure() : json(200, [])));
    const reads = flaky(2);
    await expect(client(reads).listBuckets()).resolves.toEqual([]);
    expect(reads.sent).toHaveLength(3);
    const writes = flaky(1);
    await expect(client(writes).updateNatPortForwardingRule(natRule, { note: 'x' })).rejects.toThrow(
      NetworkError,
    );
    await expect(client(writes).enableGpuVmBackups('vm-1', {})).resolves.toBeDefined();
    expect(writes.sent.map((s) => s.method)).toEqual(['PATCH', 'POST']);
  });

  test('times out each attempt with TimeoutError, and passes a caller abort through untouched', async () => {
    const fetch = stubFetch();
    const hung = async (request: Request) => {
      await fetch(request.clone());
      return hang(request.signal);
    };
    const c = createCloudClient({
      environments,
      token: devToken,
      workspaceId: '1',
      fetch: hung,
      timeoutMs: 15,
      retry: { attempts: 2, baseDelayMs: 0 },
    });
    const error = await c.getCloudVmSnapshotRestore('rst-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 15, attempts: 2 });
    expect(fetch.sent).toHaveLength(2);
    const controller = new AbortController();
    const pending = c.listBuckets({ signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });
});

describe('errors', () => {
  test('helpers throw ApiError with status, detail and operation; raw api returns { error }', async () => {
    const fetch = stubFetch(() => json(404, { detail: 'Resource not found' }));
    const c = client(fetch);
    const error = await c.getCloudVmSnapshotRestore('rst-x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      detail: 'Resource not found',
      operationId: 'getCloudVmSnapshotRestore',
    });
    expect((error as Error).message).toBe(
      'getCloudVmSnapshotRestore (GET /compute/cloud-vm-snapshots/restores/{restore_id}) failed with HTTP 404: Resource not found',
    );
    const raw = await c.api.GET('/compute/cloud-vm-snapshots/restores/{restore_id}', {
      params: { path: { restore_id: 'x' } },
    });
    expect(raw.error).toEqual({ detail: 'Resource not found' });
    expect(raw.response.status).toBe(404);
  });

  test('a non-JSON error body or success body still gives a useful ApiError', async () => {
    const gateway = stubFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(client(gateway).listBuckets()).rejects.toThrow(
      /HTTP 502: the body is not JSON: "<html>Bad gateway<\/html>"/,
    );
    const garbled = stubFetch(() => new Response('not json', { status: 200 }));
    await expect(client(garbled).listBuckets()).rejects.toThrow(/the 200 answer should be JSON but is not/);
  });
});

describe('billing guard', () => {
  test('BILL-1: guards a raw api.POST to the billable create exactly like the helper', async () => {
    const fetch = stubFetch(preflightThen({ allowed: false }));
    const c = client(fetch);
    await expect(c.api.POST('/compute/cloud-vms', { body: { plan_id: 'plan-1' } })).rejects.toMatchObject({
      name: 'BillingBlockedError',
      reason: 'denied',
    });
    expect(fetch.sent.map((s) => s.path)).toEqual(['/v1/billing/resource-eligibility']);
    expect(fetch.sent[0]?.body).toBe('{"sku_code":"plan-1"}');
  });

  test('BILL-5: a preflight refused for lack of billing.read blocks the create as unavailable, with the status', async () => {
    const fetch = stubFetch(() => json(403, { detail: 'Token lacks the required scope' }));
    const error = await client(fetch)
      .createCloudVm({ plan_id: 'plan-1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BillingBlockedError);
    expect(error).toMatchObject({ reason: 'unavailable', status: 403, workspaceId: '1042' });
    expect(fetch.sent).toHaveLength(1);
  });

  test('needs a SKU code: a create without plan_id is refused unless billing.skuCodeFor names one', async () => {
    const fetch = stubFetch(preflightThen({ allowed: true }));
    await expect(client(fetch).createCloudVm({ name: 'web-01' })).rejects.toThrow(/needs a SKU code/);
    expect(fetch.sent).toHaveLength(0);
    await client(fetch, { billing: { skuCodeFor: () => 'cloud-vm-standard-2' } }).createCloudVm({
      name: 'web-01',
    });
    expect(fetch.sent.map((s) => s.body)).toEqual([
      '{"sku_code":"cloud-vm-standard-2"}',
      '{"name":"web-01"}',
    ]);
  });

  test('checkBillingEligibility returns the decision as answered', async () => {
    const fetch = stubFetch(() => json(200, { allowed: false, reason: 'credit' }));
    await expect(client(fetch).checkBillingEligibility('sku-1')).resolves.toEqual({
      allowed: false,
      reason: 'credit',
    });
  });
});

describe('waitForOperation', () => {
  test('polls the given path with backoff until the operation is final', async () => {
    const states = ['accepted', 'running', 'succeeded'];
    const fetch = stubFetch((_, i) => json(200, { operation_id: 'op-1', status: states[i] }));
    const record = await client(fetch).waitForOperation('op-1', {
      path: '/operations/{operation_id}',
      deadlineMs: 2000,
      initialDelayMs: 1,
    });
    expect(record).toEqual({ operation_id: 'op-1', status: 'succeeded' });
    expect(fetch.sent.map((s) => `${s.path}${s.url.search}`)).toEqual(
      Array(3).fill('/v1/operations/op-1?workspace_id=1042'),
    );
  });

  test('requires the polling path, and stops at the deadline with the last record', async () => {
    const fetch = stubFetch(() => json(200, { status: 'accepted' }));
    const c = client(fetch);
    await expect(c.waitForOperation('op-1', { path: '', deadlineMs: 10 })).rejects.toThrow(
      /does not show the operation status path/,
    );
    const error = await c
      .waitForOperation('op-1', { path: '/operations/{operation_id}', deadlineMs: 30, initialDelayMs: 10 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationDeadlineError);
    expect(error).toMatchObject({ lastRecord: { status: 'accepted' } });
  });
});

describe('logging', () => {
  test('logs requests, responses, retries and billing blocks without headers, bodies or query', async () => {
    const logs: ClientLogEntry[] = [];
    const fetch = stubFetch((sent, i) =>
      i === 0
        ? networkFailure()
        : sent.path.includes('billing')
          ? json(200, { allowed: 'yes' })
          : json(200, []),
    );
    const c = client(fetch, { logger: (entry) => logs.push(entry) });
    await c.listBuckets();
    await c.createCloudVm({ plan_id: 'p' }).catch(() => undefined);
    expect(logs.map((l) => l.event)).toEqual([
      'request',
      'retry',
      'request',
      'response',
      'request',
      'response',
      'billing-blocked',
    ]);
    expect(logs[0]).toMatchObject({ level: 'debug', method: 'GET', path: '/v1/object-storage/buckets' });
    expect(JSON.stringify(logs)).not.toMatch(/workspace_id=|Bearer|plan_id/);
  });
});

test('a successful create returns the acceptance record', async () => {
  await expect(
    client(stubFetch(preflightThen({ allowed: true }))).createCloudVm({ plan_id: 'p' }),
  ).resolves.toEqual(acceptance);
});
