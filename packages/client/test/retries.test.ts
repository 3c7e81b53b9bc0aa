import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ApiError, type CloudClient, createCloudClient, NetworkError } from '../src/index.js';

type Client = CloudClient;

import { backoffMs, resolveRetryOptions, retryAfterMs } from '../src/retryPolicy.js';
import { devToken, environments, json, networkFailure, stubFetch } from './stubFetch.js';

const natRule = { vpcId: 'vpc-1', natGatewayId: 'natgw-1', portForwardingRuleId: 'pfr-1' };

const client = (fetch: ReturnType<typeof stubFetch>, extra: object = {}) =>
  createCloudClient({
    token: devToken,
    workspaceId: '1042',
    environments,
    fetch,
    retry: { baseDelayMs: 0 },
    ...extra,
  });

/** Answers `status` for the first `failures` requests, then `final`. */
const failingThen = (
  failures: number,
  status: number,
  final: () => Response,
  headers: Record<string, string> = {},
) =>
  stubFetch((_, i) =>
    i < failures
      ? new Response(JSON.stringify({ detail: 'busy' }), {
          status,
          headers: { 'Content-Type': 'application/json', ...headers },
        })
      : final(),
  );

describe('retries', () => {
  test.each([429, 502, 503, 504])('a read answered %i is retried, then resolves', async (status) => {
    const fetch = failingThen(2, status, () => json(200, []));
    await expect(client(fetch).listBuckets()).resolves.toEqual([]);
    expect(fetch.sent).toHaveLength(3);
  });

  test.each([502, 503, 504])('a keyed VM delete answered %i is retried with the same key', async (status) => {
    const fetch = failingThen(1, status, () => json(202, { operation_id: 'op-1' }));
    await client(fetch).deleteGpuVm('gpu-1');
    expect(fetch.sent).toHaveLength(2);
    const keys = fetch.sent.map((s) => s.headers.get('X-Idempotency-Key'));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });

  test('writes the API does not promise to replay are sent once, even with a key of the caller', async () => {
    const fetch = failingThen(5, 503, () => json(200, {}));
    const c = client(fetch);
    await expect(c.updateNatPortForwardingRule(natRule, { note: 'x' })).rejects.toMatchObject({
      status: 503,
    });
    await expect(c.enableGpuVmBackups('gpu-1', {})).rejects.toMatchObject({ status: 503 });
    await expect(c.releaseReservedIp('rip-1')).rejects.toMatchObject({ status: 503 });
    const keyed = await c.api.PATCH(
      '/networking/vpcs/{vpc_id}/nat-gateways/{nat_gateway_id}/port-forwarding-rules/{port_forwarding_rule_id}',
      {
        params: { path: { vpc_id: 'v', nat_gateway_id: 'n', port_forwarding_rule_id: 'p' } },
        headers: { 'X-Idempotency-Key': 'mine' },
        body: {},
      },
    );
    expect(keyed.response.status).toBe(503);
    expect(fetch.sent.map((s) => s.method)).toEqual(['PATCH', 'POST', 'DELETE', 'PATCH']);
  });

  test('Retry-After on 429 is honoured', async () => {
    const fetch = failingThen(1, 429, () => json(200, []), { 'Retry-After': '1' });
    const started = performance.now();
    await expect(client(fetch).listBuckets()).resolves.toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  test('a Retry-After beyond maxRetryAfterMs is not waited out: the 429 is returned at once, Retry-After readable', async () => {
    const fetch = failingThen(5, 429, () => json(200, []), { 'Retry-After': '120' });
    const started = performance.now();
    const error = await client(fetch, { retry: { baseDelayMs: 0, maxRetryAfterMs: 5000 } })
      .listBuckets()
      .catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).headers['retry-after']).toBe('120');
    expect(fetch.sent).toHaveLength(1);
  });

  test('retries are opt-out: retry: false sends once', async () => {
    const answers = failingThen(5, 503, () => json(200, []));
    await expect(client(answers, { retry: false }).listBuckets()).rejects.toMatchObject({ status: 503 });
    expect(answers.sent).toHaveLength(1);
    const failures = stubFetch(() => networkFailure());
    await expect(client(failures, { retry: false }).listBuckets()).rejects.toBeInstanceOf(NetworkError);
    expect(failures.sent).toHaveLength(1);
  });

  test('a caller abort during a retry wait ends the call at once with its reason', async () => {
    const fetch = failingThen(5, 503, () => json(200, []));
    const controller = new AbortController();
    const reason = new Error('stop');
    setTimeout(() => controller.abort(reason), 50);
    const started = performance.now();
    await expect(
      client(fetch, { retry: { baseDelayMs: 10_000, maxDelayMs: 10_000, jitter: false } }).listBuckets({
        signal: controller.signal,
      }),
    ).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('which requests are retried, across operations and failures', () => {
  type Failure = { readonly kind: 'network' } | { readonly kind: 'status'; readonly status: number };
  const failure = fc.oneof(
    fc.constant<Failure>({ kind: 'network' }),
    fc.constantFrom(400, 401, 403, 404, 409, 429, 500, 501, 502, 503, 504).map<Failure>((status) => ({
      kind: 'status',
      status,
    })),
  );
  const calls = [
    { name: 'GET restore', safe: true, run: (c: Client) => c.getCloudVmSnapshotRestore('rst-1') },
    { name: 'GET buckets', safe: true, run: (c: Client) => c.listBuckets() },
    { name: 'DELETE GPU VM (keyed)', safe: true, run: (c: Client) => c.deleteGpuVm('gpu-1') },
    {
      name: 'PATCH NAT rule',
      safe: false,
      run: (c: Client) => c.updateNatPortForwardingRule(natRule, { note: 'n' }),
    },
    { name: 'POST enable backups', safe: false, run: (c: Client) => c.enableGpuVmBackups('gpu-1', {}) },
    { name: 'DELETE reserved IP', safe: false, run: (c: Client) => c.releaseReservedIp('rip-1') },
  ] as const;
  const retryable = (f: Failure) => f.kind === 'network' || [429, 502, 503, 504].includes(f.status);

  test('a call is retried exactly while it is safe to repeat and the failure is retryable, each attempt with the same key and bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...calls),
        fc.array(failure, { minLength: 0, maxLength: 4 }),
        fc.integer({ min: 1, max: 4 }),
        async (call, failures, attempts) => {
          const fetch = stubFetch((sent, i) => {
            const f = failures[i];
            if (f === undefined) {
              return sent.method === 'DELETE' && sent.path.includes('reserved')
                ? new Response(null, { status: 204 })
                : json(sent.method === 'DELETE' ? 202 : 200, {});
            }
            return f.kind === 'network' ? networkFailure() : json(f.status, { detail: 'x' });
          });
          await call.run(client(fetch, { retry: { attempts, baseDelayMs: 0 } })).catch(() => undefined);
          // Attempts go on while the answer is a retryable failure and attempts remain.
          let expected = 1;
          if (call.safe) {
            while (
              expected < attempts &&
              failures[expected - 1] !== undefined &&
              retryable(failures[expected - 1] as Failure)
            ) {
              expected++;
            }
          }
          expect(fetch.sent).toHaveLength(expected);
          const keys = new Set(fetch.sent.map((s) => s.headers.get('X-Idempotency-Key')));
          const bodies = new Set(fetch.sent.map((s) => s.body));
          expect(keys.size).toBe(1);
          expect(bodies.size).toBe(1);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('retry policy', () => {
  test('full jitter: every delay lies in [0, min(maxDelayMs, baseDelayMs·2^(attempt-1))]; without jitter it is that ceiling', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 1, max: 10 }),
        (baseDelayMs, maxDelayMs, attempt) => {
          const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
          const jittered = backoffMs(resolveRetryOptions({ baseDelayMs, maxDelayMs }), attempt);
          expect(jittered).toBeGreaterThanOrEqual(0);
          expect(jittered).toBeLessThanOrEqual(Math.round(ceiling));
          expect(backoffMs(resolveRetryOptions({ baseDelayMs, maxDelayMs, jitter: false }), attempt)).toBe(
            Math.round(ceiling),
          );
        },
      ),
    );
  });

  test('Retry-After is read as seconds or as an HTTP date; anything else is ignored', () => {
    const now = Date.parse('2026-11-21T09:30:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:30:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:29:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
