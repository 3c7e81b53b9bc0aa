import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readProfileFile } from '../src/profileFile.js';
import { SandboxProfileError } from '../src/sandboxProfile.js';
import { startHarness } from './sandboxHarness.js';

// The sandbox reads target profiles with @cloud-api/target-profile, as the conformance CLI does:
// a profile the suite accepts seeds a sandbox, run settings included.
const stagingExample = fileURLToPath(
  new URL('../../conformance/profiles/staging.example.yaml', import.meta.url),
);
const directory = mkdtempSync(join(tmpdir(), 'sandbox-target-profiles-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function stagingVariables(): Record<string, string> {
  const names = [...readFileSync(stagingExample, 'utf8').matchAll(/\$\{([A-Z0-9_]+)\}/g)].map(
    (m) => m[1] ?? '',
  );
  return Object.fromEntries(
    names.map((name) => [
      name,
      `${name.startsWith('PRODUCTION') ? 'svc_prod_key_' : 'svc_dev_key_'}unit_${name.toLowerCase()}`,
    ]),
  );
}

describe('profiles written for the conformance suite', () => {
  it("seed a sandbox from the conformance package's staging example, each identity with its scopes and workspaces", async () => {
    const profile = readProfileFile(stagingExample, stagingVariables());
    const harness = await startHarness({ profile });
    try {
      expect((await harness.call('GET', '/object-storage/buckets', { as: 'full' })).status).toBe(200);
      // readOnly holds vm.read only; listing buckets needs object-storage.read.
      expect((await harness.call('GET', '/object-storage/buckets', { as: 'readOnly' })).status).toBe(403);
      expect((await harness.call('GET', '/object-storage/buckets', { as: 'noVmWrite' })).status).toBe(200);
      // primaryOnly may use workspace 1042 only.
      const other = await harness.call('GET', '/object-storage/buckets', {
        as: 'primaryOnly',
        workspace: '1043',
      });
      expect(other.status).toBe(403);
      const revoked = await harness.call('GET', '/object-storage/buckets', {
        authorization: `Bearer ${profile.revokedToken}`,
      });
      expect(revoked.status).toBe(401);
    } finally {
      await harness.close();
    }
  });

  it('accept concurrency, strict, maxResponseBytes and the other run settings', async () => {
    const path = join(directory, 'run-settings.json');
    writeFileSync(
      path,
      JSON.stringify({
        name: 'run-settings',
        baseUrl: 'https://staging.example.invalid/v1',
        environment: 'development',
        identities: { full: { token: 'svc_dev_key_unit_settings', scopes: 'all', workspaces: 'all' } },
        workspaces: { primary: '1042', secondary: '1043' },
        billing: { skuCode: 'cloud-vm-standard-2' },
        concurrency: 16,
        strict: true,
        maxResponseBytes: 4_194_304,
        requestTimeoutMs: 5000,
        rateLimitPerSecond: 10,
        unsupportedRules: [{ id: 'IDEM-2', reason: 'not claimed' }],
      }),
    );
    const profile = readProfileFile(path, {});
    expect([profile.concurrency, profile.strict, profile.maxResponseBytes]).toEqual([16, true, 4_194_304]);
    const harness = await startHarness({ profile });
    try {
      expect((await harness.call('GET', '/object-storage/buckets')).status).toBe(200);
    } finally {
      await harness.close();
    }
  });

  it('are refused with the validator messages of the conformance CLI, file named, no token', () => {
    const path = join(directory, 'bad.yaml');
    writeFileSync(
      path,
      [
        'name: bad',
        'baseUrl: https://staging.example.invalid/v1',
        'environment: development',
        'identities:',
        '  full: { token: svc_prod_key_unit_must_not_print, scopes: all, workspaces: all }',
        'workspaces: { primary: "1042", secondary: "1042" }',
        'billing: { skuCode: s }',
        'concurrency: 64',
        '',
      ].join('\n'),
    );
    let error: unknown;
    try {
      readProfileFile(path, {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SandboxProfileError);
    expect((error as Error).message).toBe(`The profile ${path} is not usable: concurrency: must be <= 32.`);
    writeFileSync(path, readFileSync(path, 'utf8').replace('concurrency: 64\n', ''));
    let crossField: unknown;
    try {
      readProfileFile(path, {});
    } catch (caught) {
      crossField = caught;
    }
    expect((crossField as Error).message).toMatch(
      /is not usable: identities\.full\.token: a development profile's tokens start with svc_dev_key_; .*; workspaces\.secondary: must differ from workspaces\.primary\.$/,
    );
    expect((crossField as Error).message).not.toContain('must_not_print');
  });
});
