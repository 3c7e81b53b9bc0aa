import { describe, expect, test } from 'vitest';
import { createCloudClient } from '../src/index.js';
import { devToken, environments, json, stubFetch } from './stubFetch.js';

describe('transport', () => {
  test('a caller abort that lands before sending refuses the request: nothing is sent, the caller reason is thrown at once', async () => {
    const fetch = stubFetch((sent) =>
      sent.method === 'DELETE' && sent.path.includes('reserved')
        ? new Response(null, { status: 204 })
        : json(202, {}),
    );
    const c = createCloudClient({
      environments,
      token: devToken,
      workspaceId: '1042',
      fetch,
      timeoutMs: 60_000,
    });
    const reason = new Error('caller gave up');
    for (const call of [
      (signal: AbortSignal) => c.deleteGpuVm('gpu-1', { signal }),
      (signal: AbortSignal) => c.releaseReservedIp('rip-1', { signal }),
      (signal: AbortSignal) => c.api.GET('/object-storage/buckets', { signal }),
    ]) {
      const controller = new AbortController();
      const started = performance.now();
      const pending = call(controller.signal);
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      expect(performance.now() - started).toBeLessThan(1000);
    }
    expect(fetch.sent).toEqual([]);
  });
});
