import type { Middleware } from 'openapi-fetch';
import { afterEach, describe, expect, test } from 'vitest';
import { createCloudClient, NetworkError, RequestTimeoutError } from '../src/index.js';
import { loopbackServer } from './loopbackServer.js';
import { devToken, environments, hang, stubFetch } from './stubFetch.js';

let server: Awaited<ReturnType<typeof loopbackServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers the status line and headers at once, then never finishes the body. */
async function stallingBodyServer() {
  server = await loopbackServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.write('{"restore_id":');
  });
  return server.baseUrl;
}

const elapsedMs = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  const outcome = await run().then(
    () => 'resolved',
    (error: unknown) => error,
  );
  return { outcome, ms: performance.now() - started };
};

describe('issue 11 #2: timeoutMs covers the body', () => {
  test('headers then a stalled body: helpers and raw calls fail with RequestTimeoutError after timeoutMs', async () => {
    const baseUrl = await stallingBodyServer();
    const c = createCloudClient({
      token: devToken,
      workspaceId: '1042',
      environments: { development: baseUrl },
      timeoutMs: 300,
      retry: { attempts: 1 },
    });
    for (const call of [
      () => c.getCloudVmSnapshotRestore('rst-1'),
      () => c.api.GET('/object-storage/buckets'),
      () => c.listBuckets({ timeoutMs: 150 }),
    ]) {
      const { outcome, ms } = await elapsedMs(call);
      expect(outcome).toBeInstanceOf(RequestTimeoutError);
      expect(outcome).toMatchObject({ waitingFor: 'body' });
      expect(ms).toBeGreaterThanOrEqual(140);
      expect(ms).toBeLessThan(1500);
    }
  });

  test('also when a middleware replaced the Request (the transport then reads the body itself)', async () => {
    const baseUrl = await stallingBodyServer();
    const c = createCloudClient({
      token: devToken,
      workspaceId: '1042',
      environments: { development: baseUrl },
      timeoutMs: 300,
      retry: { attempts: 1 },
    });
    const replacing: Middleware = {
      onRequest: ({ request }) => new Request(request, { headers: { 'X-Trace': 't-1' } }),
    };
    c.api.use(replacing);
    const { outcome, ms } = await elapsedMs(() => c.getCloudVmSnapshotRestore('rst-1'));
    expect(outcome).toBeInstanceOf(RequestTimeoutError);
    expect(ms).toBeLessThan(1500);
  });

  test('a body that arrives in time is read in full, and the timer is disarmed afterwards', async () => {
    server = await loopbackServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"restore_id":');
      setTimeout(() => response.end('"rst-1"}'), 100);
    });
    const c = createCloudClient({
      token: devToken,
      workspaceId: '1042',
      environments: { development: server.baseUrl },
      timeoutMs: 1000,
    });
    await expect(c.getCloudVmSnapshotRestore('rst-1')).resolves.toEqual({ restore_id: 'rst-1' });
  });
});

describe('a connection lost while the body is read', () => {
  test('is a NetworkError (not a bare TypeError) for helpers and raw calls, also with a middleware', async () => {
    server = await loopbackServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"restore_id":');
      setTimeout(() => response.destroy(), 20);
    });
    const c = createCloudClient({
      token: devToken,
      workspaceId: '1042',
      environments: { development: server.baseUrl },
      retry: { attempts: 1 },
    });
    for (const call of [
      () => c.getCloudVmSnapshotRestore('rst-1'),
      () => c.api.GET('/object-storage/buckets'),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).toMatch(/connection was lost while the body was read/);
    }
    c.api.use({ onRequest: ({ request }) => new Request(request) });
    await expect(c.listBuckets()).rejects.toBeInstanceOf(NetworkError);
  });
});

describe('per-call timeoutMs', () => {
  test("overrides the client's for helpers and raw calls; a bad one is refused", async () => {
    const fetch = stubFetch();
    const hung = async (request: Request) => {
      await fetch(request.clone());
      return hang(request.signal);
    };
    const c = createCloudClient({
      token: devToken,
      workspaceId: '1042',
      environments,
      fetch: hung,
      timeoutMs: 60_000,
      retry: { attempts: 1 },
    });
    const helper = await elapsedMs(() => c.listBuckets({ timeoutMs: 50 }));
    expect(helper.outcome).toMatchObject({
      name: 'RequestTimeoutError',
      timeoutMs: 50,
      waitingFor: 'answer',
    });
    expect(helper.ms).toBeLessThan(1000);
    const untyped = c.api as unknown as { GET(path: string, init: object): Promise<unknown> };
    const raw = await elapsedMs(() => untyped.GET('/object-storage/buckets', { timeoutMs: 50 }));
    expect(raw.outcome).toMatchObject({ name: 'RequestTimeoutError', timeoutMs: 50 });
    await expect(c.listBuckets({ timeoutMs: -1 })).rejects.toThrow(/timeoutMs/);
  });
});

describe("issue 11 #7: the client's timeout is not the DOMException TimeoutError", () => {
  test("a caller AbortSignal.timeout passes through as its DOMException; the client's own is RequestTimeoutError", async () => {
    const hung = (request: Request) => hang(request.signal);
    const c = createCloudClient({
      token: devToken,
      workspaceId: '1042',
      environments,
      fetch: hung,
      timeoutMs: 60_000,
      retry: { attempts: 1 },
    });
    const callers = await c.listBuckets({ signal: AbortSignal.timeout(30) }).catch((e: unknown) => e);
    expect(callers).toBeInstanceOf(DOMException);
    expect((callers as DOMException).name).toBe('TimeoutError');
    expect(callers).not.toBeInstanceOf(RequestTimeoutError);
    const own = await c.listBuckets({ timeoutMs: 30 }).catch((e: unknown) => e);
    expect(own).toBeInstanceOf(RequestTimeoutError);
    expect((own as Error).name).toBe('RequestTimeoutError');
    expect(own).not.toBeInstanceOf(DOMException);
  });
});
