import { expectTypeOf, test } from 'vitest';
import type { CloudClient, OperationRecord } from '../src/index.js';

declare const cloud: CloudClient;

test('waitForOperation resolves with a record type, not unknown', () => {
  const poll = { path: '/operations/{operation_id}', deadlineMs: 1000 };
  expectTypeOf(cloud.waitForOperation('op-1', poll)).resolves.toEqualTypeOf<OperationRecord>();
  expectTypeOf(
    cloud.waitForOperation<{ state: string }>('op-1', {
      ...poll,
      outcome: (record) => (record.state ? 'succeeded' : 'pending'),
    }),
  ).resolves.toEqualTypeOf<{ state: string }>();
  // @ts-expect-error the polling path is required: the document does not show it
  void cloud.waitForOperation('op-1', { deadlineMs: 1000 });
});
