import { describe, expect, it } from 'vitest';
import {
  LAX_NUMERIC_RESTORE,
  LAX_RESTORE,
  LAX_RUNNING_RESTORE,
  runOnLaxServer,
  STRICT_CHOICES,
  startLaxFrameworkServer,
} from './laxFrameworkServer.js';

/**
 * Every restore the profile lists is read, not the first only: a restore in another state shows
 * fields the first may not have (a running one's unset completed_at).
 */
async function respOneWith(runningRestore: 'null-dates' | 'empty-string-dates') {
  const server = await startLaxFrameworkServer({ ...STRICT_CHOICES, runningRestore });
  try {
    const outcome = await runOnLaxServer(server.origin, {
      rules: 'ENUM-1,RESP-1',
      depth: 3,
      seed: 5,
      resources: { restoreIds: [LAX_RESTORE, LAX_RUNNING_RESTORE] },
    });
    return {
      state: outcome.rules.find((rule) => rule.id === 'RESP-1')?.state,
      messages: outcome.tests.flatMap((test) => test.errors).join('\n'),
    };
  } finally {
    await server.close();
  }
}

describe('the restores a profile lists are each read', () => {
  it('fails RESP-1 on the second restore listed, whose unset completed_at is written as an empty string', async () => {
    const { state, messages } = await respOneWith('empty-string-dates');
    expect(state).toBe('failed');
    expect(messages).toMatch(/restore-8[\s\S]*completed_at|completed_at[\s\S]*restore-8/);
  });

  it('passes the same restore writing null there', async () => {
    const { state, messages } = await respOneWith('null-dates');
    expect(messages).toBe('');
    expect(state).toBe('passed');
  });
});

describe('a path id made of digits is an opaque string (PARAM-1)', () => {
  async function paramOneWith(numericRestore: 'exact' | 'integer-column') {
    const server = await startLaxFrameworkServer({ ...STRICT_CHOICES, numericRestore });
    try {
      const outcome = await runOnLaxServer(server.origin, {
        rules: 'PARAM-1',
        depth: 3,
        seed: 5,
        resources: { restoreIds: [LAX_NUMERIC_RESTORE] },
      });
      return {
        state: outcome.rules.find((rule) => rule.id === 'PARAM-1')?.state,
        messages: outcome.tests.flatMap((test) => test.errors).join('\n'),
      };
    } finally {
      await server.close();
    }
  }

  it('fails a lookup through an integer column, which serves 0700001 as restore 700001', async () => {
    const { state, messages } = await paramOneWith('integer-column');
    expect(state).toBe('failed');
    expect(messages).toMatch(/a leading zero|a plus sign|written with a fraction/);
  });

  it('passes an exact lookup of the text', async () => {
    const { state, messages } = await paramOneWith('exact');
    expect(messages).toBe('');
    expect(state).toBe('passed');
  });
});
