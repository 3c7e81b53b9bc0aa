import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, defaultSandboxProfile } from '@cloud-api/sandbox';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/run/engine.js';

// A profile without `mutations: true` is how a platform team points the suite at staging or
// production: every rule runs, and nothing on the target is created, changed or deleted.

/**
 * Requests that change nothing: reads, and the billing preflight (a decision, not a change),
 * which SCOPE-1 also sends with a trailing slash.
 */
// The preflight in any letter case too: SCOPE-1 sends its fixed segments in capitals (a read still).
const READS = /^(GET \S+|POST \/v1\/billing\/resource-eligibility\/?)$/i;

describe('a read-only run (mutations not set)', () => {
  it('sends only reads and the billing preflight, and leaves the target as it was', async () => {
    const seeded = defaultSandboxProfile();
    const sandbox = createSandbox({ profile: seeded });
    const before = JSON.stringify([...sandbox.state.natRules.values()]);
    const sent = new Set<string>();
    const server = createServer((req, res) => {
      sent.add(`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`);
      sandbox.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { mutations: _mutations, ...profile } = seeded;
      const { outcome } = await runConformance({
        profile: { ...profile, baseUrl: `http://127.0.0.1:${port}/v1` },
        depth: 5,
        seed: 21,
        reporters: [],
        outDir: mkdtempSync(join(tmpdir(), 'conformance-read-only-')),
        print: () => undefined,
      });
      expect(outcome.verdict).toBe('passed');
      expect([...sent].filter((request) => !READS.test(request))).toEqual([]);
      expect(sent.size).toBeGreaterThan(1);
      expect(sandbox.state.operations.size).toBe(0);
      expect(sandbox.state.idempotentAnswers.size).toBe(0);
      expect(JSON.stringify([...sandbox.state.natRules.values()])).toBe(before);
      // The rules that need writes say so; none of them passed.
      const skipped = outcome.tests.filter((t) => t.state === 'skipped').map((t) => t.rule);
      for (const rule of ['ASYNC-1', 'ASYNC-4', 'CONC-1', 'PATCH-1', 'BACKUP-1'])
        expect(skipped).toContain(rule);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
