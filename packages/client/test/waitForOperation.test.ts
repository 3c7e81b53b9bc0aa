import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { createCloudClient, OperationFailedError } from '../src/index.js';
import { devToken, environments, json, stubFetch } from './stubFetch.js';

const client = (fetch: ReturnType<typeof stubFetch>) =>
  createCloudClient({ token: devToken, workspaceId: '1042', environments, fetch, retry: { baseDelayMs: 0 } });
const poll = { path: '/operations/{operation_id}', deadlineMs: 10_000, initialDelayMs: 1, maxDelayMs: 2 };

describe('waitForOperation', () => {
  test('issue 11 #4: polling with a signal leaves no abort listener behind and raises no warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const fetch = stubFetch((_, i) => json(200, { status: i < 20 ? 'running' : 'succeeded' }));
      const controller = new AbortController();
      await client(fetch).waitForOperation('op-1', { ...poll, signal: controller.signal });
      expect(fetch.sent).toHaveLength(21);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('a failed operation is thrown as OperationFailedError with the typed record', async () => {
    const fetch = stubFetch(() => json(200, { status: 'failed', error_message: 'no capacity' }));
    const error = await client(fetch)
      .waitForOperation('op-1', poll)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationFailedError);
    expect(error).toMatchObject({
      status: 'failed',
      record: { status: 'failed', error_message: 'no capacity' },
    });
    expect((error as Error).message).toBe('Operation op-1 ended as failed: no capacity.');
  });

  test('the caller decides terminal states and the record type with outcome and parse', async () => {
    interface Job {
      readonly state: 'QUEUED' | 'DONE' | 'BROKEN';
      readonly vm: string;
    }
    const states = ['QUEUED', 'QUEUED', 'DONE'];
    const fetch = stubFetch((_, i) => json(200, { state: states[i], vm: 'vm-1' }));
    const job = await client(fetch).waitForOperation<Job>('op-1', {
      ...poll,
      parse: (body) => body as Job,
      outcome: (record) =>
        record.state === 'DONE' ? 'succeeded' : record.state === 'BROKEN' ? 'failed' : 'pending',
    });
    expect(job.vm).toBe('vm-1');
    expect(fetch.sent).toHaveLength(3);
  });
});
