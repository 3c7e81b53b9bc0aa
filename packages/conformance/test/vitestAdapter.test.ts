import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startVitest } from 'vitest/node';
import { checkRegistry } from '../src/checks/registry.js';
import { SCHEMA_AUDIT_CHECK } from '../src/checks/schemaAudit.js';

const fixture = fileURLToPath(new URL('./fixtures/adapter.conformance.ts', import.meta.url));

/** Runs the fixture file in a vitest of its own, as a user's test run would, and lists each test's state. */
async function runFixture(env: Record<string, string>): Promise<Map<string, string>> {
  Object.assign(process.env, env);
  try {
    const vitest = await startVitest(
      'test',
      [],
      {
        config: false,
        root: fileURLToPath(new URL('./fixtures/', import.meta.url)),
        include: ['adapter.conformance.ts'],
        watch: false,
        reporters: [],
        silent: true,
      },
      {},
      // The nested run's own report would read like a failure of this test file: discarded.
      {
        stdout: new Writable({ write: (_chunk, _encoding, done) => done() }),
        stderr: new Writable({ write: (_chunk, _encoding, done) => done() }),
      },
    );
    const states = new Map<string, string>();
    for (const module of vitest.state.getTestModules())
      for (const test of module.children.allTests()) states.set(test.name, test.result().state);
    await vitest.close();
    return states;
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
  }
}

describe('vitest adapter (@cloud-api/conformance/vitest)', () => {
  it('declares one test per registry check of the selected rules, and the run-wide RESP-1 audit, all passing on the correct sandbox', async () => {
    expect(fixture).toMatch(/adapter\.conformance\.ts$/);
    const states = await runFixture({ ADAPTER_RULES: 'WS-1,WS-2,RESP-1' });
    const expected = [
      ...checkRegistry.filter((check) => ['WS-1', 'WS-2', 'RESP-1'].includes(check.rule)).map((c) => c.title),
      SCHEMA_AUDIT_CHECK.title,
    ];
    expect([...states.keys()].sort()).toEqual([...expected].sort());
    expect([...states.values()].every((state) => state === 'passed')).toBe(true);
  });

  it('fails the test of the check a faulty server breaks, and only that rule', async () => {
    const states = await runFixture({
      ADAPTER_RULES: 'WS-1,WS-2',
      ADAPTER_FAULT: 'accept-zero-workspace-id',
    });
    const failed = [...states].filter(([, state]) => state === 'failed').map(([title]) => title);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((title) => title.startsWith('WS-2 '))).toBe(true);
  });
});
