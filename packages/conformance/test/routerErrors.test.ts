import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/run/engine.js';
import { scopeNames } from '../src/targetProfile/index.js';
import { laxProfile, STRICT_CHOICES, startLaxFrameworkServer } from './laxFrameworkServer.js';

const ROUTER_CHECK = 'ERR-1 errors a router answers before any handler';

describe('ERR-1: errors a router answers before any handler', () => {
  it('are asked for and judged even when no identity holds the bucket list scope', async () => {
    const server = await startLaxFrameworkServer(STRICT_CHOICES);
    try {
      const profile = laxProfile(server.origin);
      const full = profile.identities.full;
      if (!full) throw new Error('the lax profile names its full identity');
      const { outcome } = await runConformance({
        profile: {
          ...profile,
          identities: {
            full: { ...full, scopes: scopeNames().filter((scope) => scope !== 'object-storage.read') },
          },
        },
        rules: 'ERR-1',
        depth: 3,
        seed: 3,
        reporters: [],
        outDir: mkdtempSync(join(tmpdir(), 'conformance-router-')),
        print: () => undefined,
      });
      const check = outcome.tests.find((test) => test.title.startsWith(ROUTER_CHECK));
      expect(check?.state, check?.reason).toBe('passed');
    } finally {
      await server.close();
    }
  });
});
