import { describe, expect, test } from 'vitest';
import { ApiError, BillingBlockedError, createCloudClient } from '../src/index.js';
import { acceptance, devToken, environments, hang, json, networkFailure, stubFetch } from './stubFetch.js';

const vm = { name: 'web-01', plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 };
const isPreflight = (path: string) => path.endsWith('/billing/resource-eligibility');

const client = (fetch: (request: Request) => Promise<Response>, extra: object = {}) =>
  createCloudClient({
    token: devToken,
    workspaceId: '1042',
    environments,
    fetch,
    retry: { baseDelayMs: 0 },
    ...extra,
  });

describe("issue 11 #3: the caller's signal reaches the billing preflight", () => {
  test('aborting 200 ms into a slow preflight rejects at once with the caller reason; the create is not sent', async () => {
    const fetch = stubFetch();
    const slowPreflight = async (request: Request) => {
      await fetch(request.clone());
      if (isPreflight(new URL(request.url).pathname)) {
        // Answers after 3 s unless the request is aborted first.
        await Promise.race([new Promise((resolve) => setTimeout(resolve, 3000)), hang(request.signal)]);
        return json(200, { allowed: true });
      }
      return json(202, acceptance);
    };
    const c = client(slowPreflight, { timeoutMs: 60_000 });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 200);
    const started = performance.now();
    await expect(c.createCloudVm(vm, { signal: controller.signal })).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(fetch.sent.map((s) => s.path)).toEqual(['/v1/billing/resource-eligibility']);
  });

  test("the call's timeoutMs bounds the preflight too", async () => {
    const c = client((request) => hang(request.signal), { timeoutMs: 60_000, retry: { attempts: 1 } });
    const started = performance.now();
    const error = await c.createCloudVm(vm, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'BillingBlockedError', reason: 'unavailable' });
    expect((error as Error).message).toMatch(/RequestTimeoutError/);
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe('issue 11 #7: billing messages keep the cause', () => {
  test("a preflight 403 keeps the server's detail, and every block names the sku_code asked about", async () => {
    const forbidden = stubFetch(() => json(403, { detail: 'Token lacks the billing.read scope' }));
    const error = await client(forbidden)
      .createCloudVm(vm)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BillingBlockedError);
    expect(error).toMatchObject({
      reason: 'unavailable',
      status: 403,
      detail: 'Token lacks the billing.read scope',
      skuCode: 'plan-std-2c-4g',
    });
    expect((error as Error).message).toContain('Token lacks the billing.read scope');
    expect((error as Error).message).toContain('sku_code "plan-std-2c-4g"');

    const denied = stubFetch(() => json(200, { allowed: false }));
    const deniedError = await client(denied)
      .createCloudVm(vm)
      .catch((e: unknown) => e);
    expect(deniedError).toMatchObject({ reason: 'denied', skuCode: 'plan-std-2c-4g' });
    expect((deniedError as Error).message).toMatch(
      /preflight for sku_code "plan-std-2c-4g" in workspace 1042 was denied/,
    );
  });

  test.each([402, 403, 409])(
    "the gateway's own refusal of a create (HTTP %i after an allowed preflight) is a BillingBlockedError with its key",
    async (status) => {
      const fetch = stubFetch((sent) =>
        isPreflight(sent.path)
          ? json(200, { allowed: true })
          : new Response(JSON.stringify({ detail: 'billing refused by the gateway' }), {
              status,
              headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-77' },
            }),
      );
      const error = await client(fetch)
        .createCloudVm(vm, { idempotencyKey: 'create-key-1' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BillingBlockedError);
      expect(error).toMatchObject({
        reason: 'refused',
        status,
        detail: 'billing refused by the gateway',
        requestId: 'req-77',
        idempotencyKey: 'create-key-1',
        skuCode: 'plan-std-2c-4g',
      });
      expect((error as Error).message).toMatch(/does not show the status of the gateway's billing refusal/);
    },
  );

  test.each([400, 401, 500])(
    'a %i answer to a create stays an ApiError (the document gives it another meaning)',
    async (status) => {
      const fetch = stubFetch((sent) =>
        isPreflight(sent.path) ? json(200, { allowed: true }) : json(status, { detail: 'x' }),
      );
      const error = await client(fetch, { retry: { attempts: 1 } })
        .createCloudVm(vm)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).not.toBeInstanceOf(BillingBlockedError);
    },
  );
});

describe('preflight retries', () => {
  test('the preflight is retried on a network failure and on 503, then the create is sent', async () => {
    const fetch = stubFetch((sent, i) => {
      if (isPreflight(sent.path))
        return i === 0 ? networkFailure() : i === 1 ? json(503, {}) : json(200, { allowed: true });
      return json(202, acceptance);
    });
    await expect(client(fetch).createCloudVm(vm)).resolves.toEqual(acceptance);
    expect(fetch.sent.map((s) => s.path)).toEqual([
      '/v1/billing/resource-eligibility',
      '/v1/billing/resource-eligibility',
      '/v1/billing/resource-eligibility',
      '/v1/compute/cloud-vms',
    ]);
  });

  test('a create retried after a lost answer replays the same key and bytes without a fresh preflight', async () => {
    const fetch = stubFetch((sent, i) => {
      if (isPreflight(sent.path)) return json(200, { allowed: true });
      return i === 1 ? networkFailure() : json(202, acceptance);
    });
    await expect(client(fetch).createCloudVm(vm)).resolves.toEqual(acceptance);
    expect(fetch.sent.map((s) => s.path)).toEqual([
      '/v1/billing/resource-eligibility',
      '/v1/compute/cloud-vms',
      '/v1/compute/cloud-vms',
    ]);
    const [, first, second] = fetch.sent;
    expect(second?.headers.get('X-Idempotency-Key')).toBe(first?.headers.get('X-Idempotency-Key'));
    expect(second?.body).toBe(first?.body);
  });
});
