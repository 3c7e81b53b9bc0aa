import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  loadProfileFile,
  profileProblems,
  renderTargetProfileSchemaFile,
  targetProfileSchemaPath,
} from '../src/index.js';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const committed = readFileSync(targetProfileSchemaPath, 'utf8');

describe('schema/target-profile.schema.json', () => {
  it('is the schema the validator uses (regenerate with `pnpm --filter @cloud-api/target-profile generate`)', () => {
    expect(committed).toBe(renderTargetProfileSchemaFile());
  });

  it('works on its own, as editors and other tools read it: it agrees with validateProfile', () => {
    const schema = JSON.parse(committed) as Record<string, unknown>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    const valid = {
      name: 'unit',
      baseUrl: 'https://api.example.invalid/v1',
      environment: 'production',
      identities: { a: { token: 'svc_prod_key_unit', scopes: ['vm.read'], workspaces: ['7'] } },
      workspaces: { primary: '7', secondary: '8' },
      billing: { skuCode: 's' },
      concurrency: 8,
      strict: true,
      maxResponseBytes: 2048,
    };
    const candidates: unknown[] = [
      valid,
      { ...valid, concurrency: 0 },
      { ...valid, maxResponseBytes: 10 },
      { ...valid, strict: 'true' },
      { ...valid, extra: 1 },
      { ...valid, identities: { a: { token: 'svc_prod_key_unit', scopes: ['vm.fly'], workspaces: 'all' } } },
      { ...valid, workspaces: { primary: '07', secondary: '8' } },
      { ...valid, baseUrl: 'https://api.example.invalid/v2' },
    ];
    for (const candidate of candidates)
      expect(validate(candidate), JSON.stringify(candidate)).toBe(profileProblems(candidate).length === 0);
  });
});

describe('every profile the repository ships', () => {
  /** Each `${NAME}` of the file set to a token of the right environment (distinct per name). */
  function environmentFor(path: string): NodeJS.ProcessEnv {
    const names = [...readFileSync(path, 'utf8').matchAll(/\$\{([A-Z0-9_]+)\}/g)].map(
      (match) => match[1] ?? '',
    );
    return Object.fromEntries(
      names.map((name) => [
        name,
        name.startsWith('PRODUCTION') ? `svc_prod_key_unit_${name}` : `svc_dev_key_unit_${name}`,
      ]),
    );
  }

  it.each([
    'packages/conformance/profiles/prism.yaml',
    'packages/conformance/profiles/staging.example.yaml',
    'packages/conformance/profiles/staging.provisioned.example.yaml',
    'packages/sandbox/profiles/sandbox.example.yaml',
  ])('%s is valid', (file) => {
    const path = `${repositoryRoot}${file}`;
    const profile = loadProfileFile(path, { env: environmentFor(path) });
    expect(Object.keys(profile.identities).length).toBeGreaterThan(0);
  });

  it('the staging example sets concurrency and names every variable it needs', () => {
    const path = `${repositoryRoot}packages/conformance/profiles/staging.example.yaml`;
    const env = environmentFor(path);
    expect(Object.keys(env)).toContain('STAGING_TOKEN_FULL');
    expect(loadProfileFile(path, { env }).concurrency).toBe(4);
  });

  it('the provisioned staging example runs its provision command on the pool shipped beside it', () => {
    const path = `${repositoryRoot}packages/conformance/profiles/staging.provisioned.example.yaml`;
    const { provision } = loadProfileFile(path, { env: environmentFor(path) });
    expect(provision?.command).toEqual(['node', 'provision.example.mjs', 'resource-pool.example.json']);
    for (const file of provision?.command.slice(1) ?? [])
      expect(existsSync(`${repositoryRoot}packages/conformance/profiles/${file}`), file).toBe(true);
  });
});
