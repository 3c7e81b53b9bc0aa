import { describe, expect, it } from 'vitest';
import {
  type LaxFrameworkChoices,
  type LaxLimitedIdentity,
  runOnLaxServer,
  STRICT_CHOICES,
  startLaxFrameworkServer,
} from './laxFrameworkServer.js';

/** POLICY-1's state, its ride-along check's gaps and the failure messages, on the lax server. */
async function policyOneWith(
  choices: Partial<LaxFrameworkChoices>,
  limitedIdentities: readonly LaxLimitedIdentity[] = ['secondaryOnly'],
): Promise<{ state: string | undefined; gaps: string; messages: string }> {
  const server = await startLaxFrameworkServer({ ...STRICT_CHOICES, ...choices });
  try {
    const outcome = await runOnLaxServer(server.origin, {
      rules: 'POLICY-1',
      depth: 3,
      seed: 5,
      limitedIdentities,
    });
    const rideAlong = outcome.tests.filter((test) => test.title.includes('rides along'));
    return {
      state: outcome.rules.find((rule) => rule.id === 'POLICY-1')?.state,
      gaps: rideAlong.flatMap((test) => (test.gaps ?? []).map((gap) => gap.what)).join('\n'),
      messages: outcome.tests.flatMap((test) => test.errors).join('\n'),
    };
  } finally {
    await server.close();
  }
}

describe('POLICY-1: a forbidden workspace riding along with an allowed one is never served', () => {
  it("fails a policy that reads the first workspace_id where the handler reads the last: the forbidden workspace's bucket list is served", async () => {
    const { state, messages } = await policyOneWith({ repeatedWorkspace: 'policy-first-handler-last' });
    expect(state).toBe('failed');
    expect(messages).toMatch(
      /may use workspace 1043 only; with workspace_id given twice \(workspace_id=1043, then workspace_id=1042\) it was served workspace 1042's bucket list/,
    );
  });

  it("fails the same behind a list cache, which hides it on lists: the primary workspace's restore is served to an identity kept out of it", async () => {
    const { state, messages } = await policyOneWith({
      repeatedWorkspace: 'policy-first-handler-last',
      bucketList: 'cached-per-route',
    });
    expect(state).toBe('failed');
    expect(messages).not.toMatch(/bucket list/);
    expect(messages).toMatch(
      /may use workspace 1043 only, not 1042; with workspace_id given twice \(workspace_id=1043, then workspace_id=1042\) it was served restore restore-7 of workspace 1042, which it gets 404 for in workspace 1043/,
    );
  });

  it.each<[NonNullable<LaxFrameworkChoices['repeatedWorkspace']>, string]>([
    ['refused', 'refuses the repeated parameter with 400'],
    ['first', 'reads the first value for everything'],
    ['last', 'reads the last value for everything (the policy then refuses the forbidden one)'],
    ['joined', 'lets the handler read the values joined, which name no workspace (404)'],
  ])('passes a target that %s: it %s', async (choice) => {
    const { state, messages } = await policyOneWith({ repeatedWorkspace: choice });
    expect(messages).toBe('');
    expect(state).toBe('passed');
  });

  it('names the restore part as not checked when no identity is kept out of the primary workspace', async () => {
    const { state, gaps } = await policyOneWith({ repeatedWorkspace: 'first' }, ['primaryOnly']);
    expect(state).toBe('passed');
    expect(gaps).toMatch(/a restore of the primary workspace asked for through another workspace/);
  });
});
