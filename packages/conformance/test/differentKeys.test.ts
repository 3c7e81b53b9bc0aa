import { describe, expect, it } from 'vitest';
import { type AsyncStoreChoices, CORRECT_CHOICES, runOnAsyncStore } from './asyncStoreServer.js';

const DIFFERENT_KEYS = 'IDEM-2 creates with different keys are different creates';

/** The state and failure messages of IDEM-2's different-keys check against the async-store server. */
async function differentKeys(keys: NonNullable<AsyncStoreChoices['keys']>) {
  const outcome = await runOnAsyncStore(
    { ...CORRECT_CHOICES, keys },
    // The late retry of IDEM-2 waits a request timeout: a short one keeps the test quick.
    { rules: 'IDEM-2', depth: 3, seed: 3, requestTimeoutMs: 1_000 },
  );
  const check = outcome.tests.find((test) => test.title.startsWith(DIFFERENT_KEYS));
  return { state: check?.state, messages: outcome.tests.flatMap((test) => test.errors).join('\n') };
}

describe('IDEM-2: keys a store may confuse are two keys', () => {
  it('fails a store comparing keys without regard to case: the lower-case copy of an accepted key is refused as its reuse', async () => {
    const { state, messages } = await differentKeys('case-insensitive');
    expect(state).toBe('failed');
    expect(messages).toMatch(
      /X-Idempotency-Key "conformance-[0-9a-f-]{36}" was refused \(422\) after one with "Conformance-[0-9A-F-]{36}" was accepted, while a create with another lower-case key was accepted \(202\)/,
    );
  });

  it('passes a store comparing keys exactly, with evidence', async () => {
    const { state, messages } = await differentKeys('exact');
    expect(messages).toBe('');
    expect(state).toBe('passed');
  });

  it('is no evidence, not a failure, on a store that accepts UUID keys only', async () => {
    const { state, messages } = await differentKeys('uuid-only');
    expect(messages).toBe('');
    expect(state).toBe('inconclusive');
  });
});
