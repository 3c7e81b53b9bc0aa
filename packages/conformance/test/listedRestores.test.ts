import { describe, expect, it } from 'vitest';
import {
  LAX_NUMERIC_RESTORE,
  LAX_RESTORE,
  LAX_RUNNING_RESTORE,
  type LaxFrameworkChoices,
  runOnLaxServer,
  STRICT_CHOICES,
  startLaxFrameworkServer,
} from './laxFrameworkServer.js';

/** `rule`'s state and failure messages when the suite runs `rules` against the lax server with `restoreIds`. */
async function ruleOn(
  choices: Partial<LaxFrameworkChoices>,
  rules: string,
  rule: string,
  restoreIds: string[],
): Promise<{ state: string | undefined; messages: string }> {
  const server = await startLaxFrameworkServer({ ...STRICT_CHOICES, ...choices });
  try {
    const outcome = await runOnLaxServer(server.origin, {
      rules,
      depth: 3,
      seed: 5,
      resources: { restoreIds },
    });
    return {
      state: outcome.rules.find((found) => found.id === rule)?.state,
      messages: outcome.tests.flatMap((test) => test.errors).join('\n'),
    };
  } finally {
    await server.close();
  }
}

/**
 * Every restore the profile lists is read, not the first only: a restore in another state shows
 * fields the first may not have (a running one's unset completed_at).
 */
const respOneWith = (runningRestore: 'null-dates' | 'empty-string-dates') =>
  ruleOn({ runningRestore }, 'ENUM-1,RESP-1', 'RESP-1', [LAX_RESTORE, LAX_RUNNING_RESTORE]);

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
  const paramOneWith = (numericRestore: 'exact' | 'integer-column') =>
    ruleOn({ numericRestore }, 'PARAM-1', 'PARAM-1', [LAX_NUMERIC_RESTORE]);

  it('fails a lookup through an integer column, which serves 0700001 (or 700001 after a tab) as restore 700001', async () => {
    const { state, messages } = await paramOneWith('integer-column');
    expect(state).toBe('failed');
    // An integer cast also skips leading whitespace: whichever form the run meets first is named.
    expect(messages).toMatch(
      /(a leading zero|a plus sign|written with a fraction|a tab before it|an ideographic space before it) \(another identifier/,
    );
  });

  it('passes an exact lookup of the text', async () => {
    const { state, messages } = await paramOneWith('exact');
    expect(messages).toBe('');
    expect(state).toBe('passed');
  });
});
