import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, defaultSandboxProfile, type ListeningSandbox } from '@cloud-api/sandbox';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { linkThisPackage, runQuickstart } from './quickstartRun.js';

let listening: ListeningSandbox;
let token: string;
let dir: string;

beforeAll(async () => {
  const sandbox = createSandbox({ profile: defaultSandboxProfile(), fault: undefined, variant: undefined });
  listening = await sandbox.listen(0);
  token = listening.profile.identities.full?.token ?? '';
  dir = await mkdtemp(join(tmpdir(), 'cloud-api-quickstart-'));
  await linkThisPackage(dir);
});
afterAll(async () => {
  await listening?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('issue 11 #6: the README quickstart, run as written against the sandbox', () => {
  test('creates the VM: the preflight allows its plan, the sandbox accepts the create', {
    timeout: 60_000,
  }, async () => {
    const run = await runQuickstart(dir, { CLOUD_API_TOKEN: token, CLOUD_API_DEV_URL: listening.url });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^VM vm-\S+ accepted as operation op-[0-9a-f]{8}\n$/);
    expect(run.code).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toContain(token);
  });

  test('without the base URL it stops at construction, naming the option to set', {
    timeout: 60_000,
  }, async () => {
    const run = await runQuickstart(dir, { CLOUD_API_TOKEN: token });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('BaseUrlError');
    expect(run.stderr).toContain('Set `environments.development`');
    expect(run.stderr).not.toContain(token);
  });
});
