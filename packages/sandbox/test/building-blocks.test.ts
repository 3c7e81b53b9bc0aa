import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/createSandbox.js';
import { defaultSandboxProfile, exampleTokenSecret } from '../src/defaultSandboxProfile.js';
import { parseJsonBody } from '../src/jsonBodyReader.js';
import { readProfileFile, writeProfileFile } from '../src/profileFile.js';
import { parseQueryString } from '../src/queryString.js';
import { RouteTable } from '../src/routeTable.js';
import { SandboxProfileError } from '../src/sandboxProfile.js';

describe('RouteTable', () => {
  const table = new RouteTable<string>('/v1');
  table.add('DELETE', '/compute/gpu-vms/{vm_id}', 'delete');
  table.add('POST', '/compute/gpu-vms/{vm_id}/backups/enable', 'enable');
  table.add('GET', '/object-storage/buckets', 'list');

  it('matches templates, decodes parameters, and tells 404 from 405', () => {
    expect(table.match('DELETE', '/v1/compute/gpu-vms/vm%2D1')).toEqual({
      kind: 'found',
      value: 'delete',
      pathParameters: { vm_id: 'vm-1' },
    });
    expect(table.match('POST', '/v1/compute/gpu-vms/a/backups/enable')).toMatchObject({ value: 'enable' });
    expect(table.match('GET', '/v1/compute/gpu-vms/a')).toEqual({
      kind: 'method-not-allowed',
      allowed: ['DELETE'],
    });
    expect(table.match('DELETE', '/v1/compute/gpu-vms/')).toEqual({ kind: 'not-found' });
    expect(table.match('GET', '/v1/object-storage/buckets/')).toEqual({ kind: 'not-found' });
    expect(table.match('GET', '/object-storage/buckets')).toEqual({ kind: 'not-found' });
    expect(table.match('DELETE', '/v1/compute/gpu-vms/%E2%82')).toMatchObject({ kind: 'bad-path' });
  });

  it('round-trips any path parameter value through percent-encoding', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (id) => {
        const match = table.match('DELETE', `/v1/compute/gpu-vms/${encodeURIComponent(id)}`);
        expect(match).toMatchObject({ kind: 'found', pathParameters: { vm_id: id } });
      }),
    );
  });
});

describe('parseJsonBody', () => {
  const limits = { maxBytes: 1024, maxDepth: 4 };
  it('accepts JSON and refuses invalid UTF-8, malformed JSON, deep nesting and prototype keys with 400', () => {
    expect(parseJsonBody(Buffer.from('{"a":[1]}'), limits)).toEqual({ ok: true, value: { a: [1] } });
    expect(parseJsonBody(Buffer.from([0x7b, 0xff, 0x7d]), limits)).toMatchObject({ ok: false, status: 400 });
    expect(parseJsonBody(Buffer.from('{"a":'), limits)).toMatchObject({
      ok: false,
      status: 400,
      malformedJson: true,
    });
    expect(parseJsonBody(Buffer.from('[[[[[1]]]]]'), limits)).toMatchObject({
      ok: false,
      detail: expect.stringContaining('deeper'),
    });
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      expect(parseJsonBody(Buffer.from(`{"x":[{"${key}":{}}]}`), limits)).toMatchObject({
        ok: false,
        detail: expect.stringContaining(key),
      });
    }
    expect(parseJsonBody(Buffer.from('   '), limits)).toMatchObject({ ok: false, status: 400 });
  });
});

describe('parseQueryString', () => {
  it('keeps the first value, notes duplicates and refuses bad percent-encoding', () => {
    const parsed = parseQueryString('workspace_id=1042&x=a+b&workspace_id=7');
    expect(parsed).toMatchObject({ ok: true });
    if (!parsed.ok) return;
    expect(parsed.values.get('workspace_id')).toBe('1042');
    expect(parsed.values.get('x')).toBe('a b');
    expect(parsed.duplicated.has('workspace_id')).toBe(true);
    expect(parseQueryString('workspace_id=%zz')).toMatchObject({ ok: false });
  });
});

describe('profiles', () => {
  it('the default profile gives every identity a fresh random token of the environment', () => {
    const a = defaultSandboxProfile();
    const b = defaultSandboxProfile();
    expect(a.identities.full?.token).toMatch(/^svc_dev_key_[A-Za-z0-9_-]{24}$/);
    expect(a.identities.full?.token).not.toBe(b.identities.full?.token);
    expect(a.otherEnvironmentToken).toMatch(/^svc_prod_key_/);
    expect(defaultSandboxProfile({ environment: 'production' }).identities.full?.token).toMatch(
      /^svc_prod_key_/,
    );
  });

  it('refuses profiles the sandbox cannot seed, naming the field and never the token', () => {
    const base = defaultSandboxProfile();
    const secret = 'svc_prod_key_wrong_environment';
    const attempt = () =>
      createSandbox({
        profile: { ...base, identities: { bad: { token: secret, scopes: 'all', workspaces: 'all' } } },
      });
    expect(attempt).toThrow(SandboxProfileError);
    expect(attempt).toThrow(/identities\.bad\.token/);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
    expect(() =>
      createSandbox({
        profile: {
          ...base,
          identities: { x: { token: 'svc_dev_key_x', scopes: ['vm.fly'], workspaces: 'all' } },
        },
      }),
    ).toThrow(/^identities\.x\.scopes\[0\]: "vm\.fly" is not one of the 16 scopes/);
    const shared = base.identities.full?.token ?? '';
    const twice = () =>
      createSandbox({
        profile: {
          ...base,
          identities: { ...base.identities, again: { token: shared, scopes: 'all', workspaces: 'all' } },
        },
      });
    expect(twice).toThrow(
      /identities\.again\.token: is the same token as identities\.full\.token; each identity needs a token of its own/,
    );
    expect(() => createSandbox({ profile: base, environment: 'production' })).toThrow(
      /^environment: a production sandbox needs a production profile \(tokens starting with svc_prod_key_\); this one is development$/,
    );
    expect(() =>
      createSandbox({ profile: { ...base, workspaces: { primary: '0', secondary: '2' } } }),
    ).toThrow(/workspaces\.primary/);
    expect(() => createSandbox({ profile: base, fault: 'no-such-fault' as never })).toThrow(/Unknown fault/);
  });

  it('the committed example profile is the default profile with its fake tokens, and seeds a sandbox', () => {
    const example = readProfileFile(new URL('../profiles/sandbox.example.yaml', import.meta.url).pathname);
    expect(example).toEqual(defaultSandboxProfile({ tokenSecret: exampleTokenSecret }));
    expect(example.identities.full?.token).toBe('svc_dev_key_sandbox_full');
    expect(() => createSandbox({ profile: example })).not.toThrow();
  });

  it('writes profiles owner-only and reads them back, YAML or JSON, expanding environment references', () => {
    const directory = mkdtempSync(join(tmpdir(), 'sandbox-profile-test-'));
    const profile = defaultSandboxProfile();
    for (const name of ['p.yaml', 'p.json']) {
      const path = join(directory, name);
      writeProfileFile(path, profile);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readProfileFile(path)).toEqual(profile);
    }
    const withVariable = join(directory, 'v.yaml');
    writeFileSync(
      withVariable,
      readFileSync(join(directory, 'p.yaml'), 'utf8').replace(/name: sandbox/, `name: ${'$'}{SANDBOX_NAME}`),
    );
    expect(readProfileFile(withVariable, { SANDBOX_NAME: 'from-env' }).name).toBe('from-env');
    expect(() => readProfileFile(withVariable, {})).toThrow(/SANDBOX_NAME is not set/);
    expect(() => readProfileFile(join(directory, 'missing.yaml'))).toThrow(/Cannot read the profile/);
  });
});
