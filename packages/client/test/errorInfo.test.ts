import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  ApiError,
  CLIENT_VERSION,
  type ClientLogEntry,
  createCloudClient,
  NetworkError,
} from '../src/index.js';
import { devToken, environments, json, networkFailure, stubFetch } from './stubFetch.js';

const client = (fetch: ReturnType<typeof stubFetch>, extra: object = {}) =>
  createCloudClient({
    token: devToken,
    workspaceId: '1042',
    environments,
    fetch,
    retry: { baseDelayMs: 0 },
    ...extra,
  });

describe('what a caller gets after a failure', () => {
  test('ApiError carries status, headers (token removed), request id and the idempotency key of a failed delete', async () => {
    const logs: ClientLogEntry[] = [];
    const fetch = stubFetch(
      () =>
        new Response(JSON.stringify({ detail: 'VM is being deleted' }), {
          status: 409,
          headers: {
            'Content-Type': 'application/json',
            'X-Request-Id': 'req-42',
            'X-Echo': `Bearer ${devToken}`,
          },
        }),
    );
    const error = await client(fetch, { logger: (entry: ClientLogEntry) => logs.push(entry) })
      .deleteGpuVm('gpu-1', { idempotencyKey: 'delete-key-1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, requestId: 'req-42', idempotencyKey: 'delete-key-1' });
    expect((error as ApiError).headers['content-type']).toBe('application/json');
    expect((error as ApiError).headers['x-echo']).toBe('Bearer [token redacted]');
    expect((error as Error).message).toContain('[request id req-42]');
    expect(JSON.stringify(error)).not.toContain(devToken);
    expect(logs.find((l) => l.event === 'response')).toMatchObject({ status: 409, requestId: 'req-42' });
  });

  test('a request id that echoes the token is redacted in errors and log entries', async () => {
    const logs: ClientLogEntry[] = [];
    const fetch = stubFetch(
      () => new Response('{}', { status: 404, headers: { 'X-Request-Id': `req-${devToken}` } }),
    );
    const error = await client(fetch, { logger: (entry: ClientLogEntry) => logs.push(entry) })
      .listBuckets()
      .catch((e: unknown) => e);
    expect((error as ApiError).requestId).toBe('req-[token redacted]');
    expect(`${JSON.stringify(error)} ${(error as Error).message} ${JSON.stringify(logs)}`).not.toContain(
      devToken,
    );
  });

  test("another caller's token a gateway puts in an error (detail, header, request id; raw or base64) is masked in errors and log entries", async () => {
    const foreign = 'svc_prod_key_FAKEotherCallerNotAreal';
    const logs: ClientLogEntry[] = [];
    const fetch = stubFetch(
      () =>
        new Response(JSON.stringify({ detail: `token ${foreign} is not valid for workspace 1042` }), {
          status: 403,
          headers: {
            'Content-Type': 'application/json',
            'X-Request-Id': `req-${foreign}`,
            'X-Debug-Credential': `Basic ${btoa(`user:${foreign}`)}`,
          },
        }),
    );
    const error = (await client(fetch, { logger: (entry: ClientLogEntry) => logs.push(entry) })
      .listBuckets()
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.detail).toBe('token svc_prod_key_[token redacted] is not valid for workspace 1042');
    expect(error.requestId).toBe('req-svc_prod_key_[token redacted]');
    expect(error.headers['x-debug-credential']).toBe('Basic [token redacted]');
    const everything = `${JSON.stringify(error)} ${error.message} ${JSON.stringify(logs)}`;
    expect(everything).not.toMatch(/svc_prod_key_F|FAKEotherCaller/);
    expect(everything).not.toContain(btoa(`user:${foreign}`).slice(4, 20));
  });

  test('a create that got no answer exposes the key it used, so the caller can replay it without a duplicate', async () => {
    const fetch = stubFetch((sent) =>
      sent.path.endsWith('/billing/resource-eligibility') ? json(200, { allowed: true }) : networkFailure(),
    );
    const error = await client(fetch)
      .createCloudVm({ plan_id: 'plan-std-2c-4g' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const creates = fetch.sent.filter((s) => s.path.endsWith('/cloud-vms'));
    expect(creates).toHaveLength(3);
    expect((error as NetworkError).idempotencyKey).toBe(creates[0]?.headers.get('X-Idempotency-Key'));
  });

  test('every request names the package and version in User-Agent, after a caller-set one', async () => {
    const fetch = stubFetch(() => json(200, []));
    const c = client(fetch);
    await c.listBuckets();
    await c.api.GET('/object-storage/buckets', { headers: { 'User-Agent': 'my-app/2.0' } });
    const agents = fetch.sent.map((s) => s.headers.get('User-Agent'));
    expect(agents[0]).toBe(`@cloud-api/client/${CLIENT_VERSION} node/${process.versions.node}`);
    expect(agents[1]).toBe(`my-app/2.0 @cloud-api/client/${CLIENT_VERSION} node/${process.versions.node}`);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(CLIENT_VERSION).toBe(manifest.version);
  });
});
