import type { Middleware } from 'openapi-fetch';
import { describe, expect, test } from 'vitest';
import { createCloudClient } from '../src/index.js';
import { devToken, environments, json, networkFailure, preflightThen, stubFetch } from './stubFetch.js';

const vm = { name: 'web-01', plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 };

/** Every header value of every Request a hook was handed, with the hook's name. */
function spyingMiddleware(seen: string[]): Middleware {
  const record = (hook: string, request: Request) => {
    request.headers.forEach((value, name) => {
      seen.push(`${hook} ${name}: ${value}`);
    });
    seen.push(`${hook} ${request.method} ${request.url}`);
  };
  return {
    onRequest({ request }) {
      record('onRequest', request);
    },
    onResponse({ request }) {
      record('onResponse', request);
    },
    onError({ request }) {
      record('onError', request);
    },
  };
}

describe('issue 11 #1: no middleware hook ever sees the token', () => {
  test('onRequest, onResponse and onError, registered and per call, for helpers, raw calls and the preflight', async () => {
    const fetch = stubFetch((sent, i) => {
      if (sent.path.endsWith('/object-storage/buckets') && i === 0) return networkFailure();
      return preflightThen({ allowed: true })(sent, i);
    });
    const c = createCloudClient({
      environments,
      token: devToken,
      workspaceId: '1042',
      fetch,
      retry: { attempts: 1 },
    });
    const registered: string[] = [];
    const perCall: string[] = [];
    c.api.use(spyingMiddleware(registered));
    // A network failure: openapi-fetch calls onError with its Request.
    await expect(c.listBuckets()).rejects.toThrow();
    await c.listBuckets();
    await c.createCloudVm(vm);
    await c.deleteGpuVm('gpu-1');
    await c.api.GET('/object-storage/buckets', { middleware: [spyingMiddleware(perCall)] });
    await c.api.POST('/compute/cloud-vms', { body: vm, middleware: [spyingMiddleware(perCall)] });

    const hooks = (seen: string[]) => new Set(seen.map((line) => line.split(' ')[0]));
    expect(hooks(registered)).toEqual(new Set(['onRequest', 'onResponse', 'onError']));
    expect(hooks(perCall)).toEqual(new Set(['onRequest', 'onResponse']));
    for (const line of [...registered, ...perCall]) {
      expect(line).not.toContain(devToken);
      expect(line.toLowerCase()).not.toContain('authorization');
    }
    // The wire still carries the token on every request.
    expect(fetch.sent.length).toBeGreaterThan(6);
    for (const sent of fetch.sent) expect(sent.headers.get('Authorization')).toBe(`Bearer ${devToken}`);
  });

  test('the Request of onResponse has no Authorization even when a middleware set one of its own', async () => {
    const fetch = stubFetch(() => json(200, []));
    const c = createCloudClient({ environments, token: devToken, workspaceId: '1042', fetch });
    const inResponse: (string | null)[] = [];
    c.api.use({
      onRequest({ request }) {
        request.headers.set('Authorization', 'Bearer placeholder');
      },
      onResponse({ request }) {
        inResponse.push(request.headers.get('authorization'));
      },
    });
    await c.listBuckets();
    expect(inResponse).toEqual(['Bearer placeholder']);
    expect(fetch.sent[0]?.headers.get('Authorization')).toBe(`Bearer ${devToken}`);
  });
});
