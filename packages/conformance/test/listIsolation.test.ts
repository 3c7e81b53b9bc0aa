import { describe, expect, it } from 'vitest';
import {
  type LaxFrameworkChoices,
  runOnLaxServer,
  STRICT_CHOICES,
  startLaxFrameworkServer,
} from './laxFrameworkServer.js';

// ISO-1: "Workspaces isolate resources" — for the bucket list too, whatever was read before it:
// a cache in front of a list keyed without the workspace is the classic leak.

describe('ISO-1 bucket lists against an independent server whose items name no workspace', () => {
  const LIST_CHECK =
    "ISO-1 answers each workspace's bucket list with that workspace's own, whatever was read before";

  async function listCheck(choices: LaxFrameworkChoices, bucketListsDiffer?: boolean) {
    const server = await startLaxFrameworkServer(choices);
    try {
      const outcome = await runOnLaxServer(server.origin, {
        rules: 'ISO-1',
        depth: 5,
        seed: 3,
        resources: bucketListsDiffer === undefined ? {} : { bucketListsDiffer },
      });
      const test = outcome.tests.find((t) => t.title === LIST_CHECK);
      if (!test) throw new Error(`no test titled ${LIST_CHECK}`);
      return {
        state: test.state,
        text: [test.skipReason ?? '', ...test.failures.map((f) => f.message)].join('\n'),
      };
    } finally {
      await server.close();
    }
  }

  it('passes a server answering each workspace its own list, with or without the profile saying they differ', async () => {
    expect((await listCheck(STRICT_CHOICES)).state).toBe('passed');
    expect((await listCheck({ ...STRICT_CHOICES, bucketList: 'own' }, true)).state).toBe('passed');
  });

  it('fails a list cache keyed by the route alone when the profile says the lists differ', async () => {
    const verdict = await listCheck({ ...STRICT_CHOICES, bucketList: 'cached-per-route' }, true);
    expect(verdict.state).toBe('failed');
    expect(verdict.text).toMatch(
      /workspace 1043 was answered exactly the bucket list of workspace 1042, though the profile says/,
    );
  });

  it('passes a server whose items carry a URL signed anew on every read: the members that move on their own are left out', async () => {
    const verdict = await listCheck({ ...STRICT_CHOICES, bucketList: 'signed-urls' }, true);
    expect(verdict.text).toBe('');
    expect(verdict.state).toBe('passed');
  });

  it('still fails the route-keyed cache when it re-signs the URLs it serves', async () => {
    const verdict = await listCheck({ ...STRICT_CHOICES, bucketList: 'signed-urls-cached-per-route' }, true);
    expect(verdict.state).toBe('failed');
    expect(verdict.text).toMatch(/workspace 1043 was answered the bucket list of workspace 1042 but for url/);
  });

  it('skips, never passes, when every read answered one list and the profile does not say they differ', async () => {
    const verdict = await listCheck({ ...STRICT_CHOICES, bucketList: 'cached-per-route' });
    expect(verdict.state).toBe('skipped');
    expect(verdict.text).toMatch(/set resources.bucketListsDiffer: true/);
  });
});
