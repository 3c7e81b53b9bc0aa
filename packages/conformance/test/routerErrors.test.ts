import { describe, expect, it } from 'vitest';
import { scopeNames } from '../src/targetProfile/index.js';
import { runOnLaxServer, STRICT_CHOICES, startLaxFrameworkServer } from './laxFrameworkServer.js';

const ROUTER_CHECK = 'ERR-1 errors a router answers before any handler';

describe('ERR-1: errors a router answers before any handler', () => {
  it('are asked for and judged even when no identity holds the bucket list scope', async () => {
    const server = await startLaxFrameworkServer(STRICT_CHOICES);
    try {
      const outcome = await runOnLaxServer(server.origin, {
        rules: 'ERR-1',
        depth: 3,
        seed: 3,
        profileWith: (profile) => ({
          ...profile,
          identities: Object.fromEntries(
            Object.entries(profile.identities).map(([name, identity]) => [
              name,
              { ...identity, scopes: scopeNames().filter((scope) => scope !== 'object-storage.read') },
            ]),
          ),
        }),
      });
      const check = outcome.tests.find((test) => test.title.startsWith(ROUTER_CHECK));
      expect(check?.state, check?.reason).toBe('passed');
    } finally {
      await server.close();
    }
  });
});
