import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox, readProfileFile } from '@cloud-api/sandbox';
import { targetProfileSchemaPath } from '@cloud-api/target-profile';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { profileSchemaPath, renderProfileSchemaFile } from '../src/generateArtifacts.js';
import { createSecretRedactor } from '../src/secrets/secretRedactor.js';
import {
  loadProfileFile,
  MissingEnvironmentVariableError,
  maskToken,
  ProfileValidationError,
  parseProfileText,
  profileSecrets,
  redactProfile,
} from '../src/targetProfile/index.js';

const profilesDir = fileURLToPath(new URL('../profiles/', import.meta.url));

const minimal = {
  name: 'unit',
  baseUrl: 'http://127.0.0.1:4010/v1',
  environment: 'development',
  identities: { full: { token: 'svc_dev_key_unit_full', scopes: 'all', workspaces: 'all' } },
  workspaces: { primary: '1042', secondary: '1043' },
  billing: { skuCode: 'cloud-vm-standard-2' },
};

function problemsOf(candidate: unknown, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    parseProfileText(JSON.stringify(candidate), 'unit.json', env);
  } catch (error) {
    if (error instanceof ProfileValidationError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('target profile loading and validation', () => {
  it('accepts a minimal profile written as JSON or YAML', () => {
    expect(parseProfileText(JSON.stringify(minimal), 'unit.json').name).toBe('unit');
    const yaml =
      'name: y\nbaseUrl: https://api.example.invalid/v1\nenvironment: production\nidentities:\n  a: { token: svc_prod_key_unit_a, scopes: [vm.read], workspaces: ["7"] }\nworkspaces: { primary: "7", secondary: "8" }\nbilling: { skuCode: s }\n';
    expect(parseProfileText(yaml, 'unit.yaml').identities.a?.scopes).toEqual(['vm.read']);
  });

  it('names the wrong scope and its position', () => {
    const profile = {
      ...minimal,
      identities: {
        full: {
          token: 'svc_dev_key_unit_full',
          scopes: ['vm.read', 'billing.read', 'vm.wrte'],
          workspaces: 'all',
        },
      },
    };
    const problems = problemsOf(profile);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^identities\.full\.scopes\[2\]: "vm\.wrte" is not one of the 16 scopes/);
  });

  it('names missing, unknown and malformed fields', () => {
    const { billing: _billing, ...withoutBilling } = minimal;
    expect(problemsOf(withoutBilling)).toEqual(['(root): missing required field "billing"']);
    expect(problemsOf({ ...minimal, mutation: true })[0]).toMatch(/^\(root\): unknown field "mutation"/);
    expect(problemsOf({ ...minimal, baseUrl: 'http://127.0.0.1:4010/v2' })[0]).toMatch(
      /^baseUrl: .* must be an http\(s\) URL ending with \/v1/,
    );
    expect(problemsOf({ ...minimal, workspaces: { primary: '0', secondary: '1043' } })[0]).toMatch(
      /^workspaces\.primary: "0" must be a positive decimal workspace ID/,
    );
    expect(problemsOf({ ...minimal, environment: 'staging' })[0]).toMatch(
      /^environment: "staging" is not one of "development", "production"/,
    );
    expect(problemsOf({ ...minimal, concurrency: 4 })).toEqual([]);
    expect(problemsOf({ ...minimal, concurrency: 0 })[0]).toMatch(/^concurrency: /);
    expect(problemsOf({ ...minimal, concurrency: 2.5 })[0]).toMatch(/^concurrency: /);
  });

  it('refuses a token of the other environment without printing it', () => {
    const token = 'svc_prod_key_unit_wrong_environment';
    const problems = problemsOf({
      ...minimal,
      identities: { full: { token, scopes: 'all', workspaces: 'all' } },
    });
    expect(problems[0]).toMatch(
      /^identities\.full\.token: a development profile's tokens start with svc_dev_key_/,
    );
    expect(problems.join('\n')).not.toContain(token);
  });

  it('refuses a base URL carrying user credentials, without printing them', () => {
    const problems = problemsOf({ ...minimal, baseUrl: 'https://ops:hunter2@api.example.invalid/v1' });
    expect(problems).toEqual([expect.stringMatching(/^baseUrl: must not carry user credentials/)]);
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
  it('expands ${VAR} references and names a missing variable without any value', () => {
    const withReference = {
      ...minimal,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
      identities: { full: { token: '${UNIT_TOKEN_FULL}', scopes: 'all', workspaces: 'all' } },
    };
    const loaded = parseProfileText(JSON.stringify(withReference), 'unit.json', {
      UNIT_TOKEN_FULL: 'svc_dev_key_from_env',
    });
    expect(loaded.identities.full?.token).toBe('svc_dev_key_from_env');
    let error: unknown;
    try {
      parseProfileText(JSON.stringify(withReference), 'unit.json', { OTHER: 'svc_dev_key_must_not_show' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MissingEnvironmentVariableError);
    expect((error as Error).message).toBe(
      'identities.full.token: environment variable UNIT_TOKEN_FULL is not set. Export it (or remove the field) and run again.',
    );
  });

  it('explains a missing file and a file that is not a mapping', () => {
    expect(() => loadProfileFile('/nonexistent/profile.yaml')).toThrow(
      /does not exist\. Pass --target prism, --target sandbox, or a path/,
    );
    expect(() => parseProfileText('- a\n- b\n', 'list.yaml')).toThrow(/must contain a mapping/);
    expect(() => parseProfileText('a: [', 'broken.yaml')).toThrow(/is not valid YAML or JSON/);
  });

  it('ships a valid Prism profile and a valid staging example', () => {
    expect(loadProfileFile(`${profilesDir}prism.yaml`).name).toBe('prism');
    const env = Object.fromEntries(
      [...readFileSync(`${profilesDir}staging.example.yaml`, 'utf8').matchAll(/\$\{([A-Z_]+)\}/g)].map(
        (m, i) => [m[1], m[1]?.startsWith('PRODUCTION') ? `svc_prod_key_unit_${i}` : `svc_dev_key_unit_${i}`],
      ),
    );
    const staging = loadProfileFile(`${profilesDir}staging.example.yaml`, env);
    expect(staging.mutations).toBe(false);
    expect(Object.keys(staging.identities).length).toBeGreaterThanOrEqual(5);
  });

  it('publishes the JSON Schema it validates with (regenerate with `pnpm run generate`)', () => {
    expect(readFileSync(profileSchemaPath, 'utf8')).toBe(renderProfileSchemaFile());
  });

  it('publishes the very file @cloud-api/target-profile publishes, whose definition the validator compiles', () => {
    expect(readFileSync(profileSchemaPath, 'utf8')).toBe(readFileSync(targetProfileSchemaPath, 'utf8'));
    const schema = JSON.parse(readFileSync(profileSchemaPath, 'utf8')) as {
      properties: Record<string, { description?: string }>;
    };
    for (const field of ['concurrency', 'maxResponseBytes', 'strict'])
      expect(schema.properties[field]?.description, field).toMatch(/\w/);
  });

  it('refuses what no target can honour: two identities with one token, a token without its environment prefix', () => {
    const shared = 'svc_dev_key_unit_shared';
    expect(
      problemsOf({
        ...minimal,
        identities: {
          full: { token: shared, scopes: 'all', workspaces: 'all' },
          primaryOnly: { token: shared, scopes: 'all', workspaces: ['1042'] },
        },
      }),
    ).toEqual([
      'identities.primaryOnly.token: is the same token as identities.full.token; each identity needs a token of its own',
    ]);
    expect(
      problemsOf({
        ...minimal,
        identities: { full: { token: 'unit-token', scopes: 'all', workspaces: 'all' } },
      }),
    ).toEqual([
      "identities.full.token: a development profile's tokens start with svc_dev_key_ (the API binds each token to its environment by that prefix)",
    ]);
  });
});

describe('the sandbox and this CLI read profiles alike', () => {
  const directory = mkdtempSync(join(tmpdir(), 'conformance-profile-parity-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** Any mix of the optional fields, each with a valid value. */
  const validSettings = fc.record(
    {
      concurrency: fc.constantFrom(1, 4, 32),
      strict: fc.boolean(),
      maxResponseBytes: fc.constantFrom(1024, 67_108_864, 268_435_456),
      rateLimitPerSecond: fc.constantFrom(20, 0.5),
      requestTimeoutMs: fc.constantFrom(100, 600_000),
      preflightTimeoutMs: fc.constantFrom(100, 10_000, 600_000),
      provision: fc.constantFrom(
        { command: ['node', 'provision.mjs'] },
        { command: ['./provision'], timeoutMs: 1000 },
      ),
      mutations: fc.boolean(),
      allowProduction: fc.boolean(),
      unsupportedRules: fc.constant([{ id: 'IDEM-2', reason: 'not claimed' }]),
      revokedToken: fc.constant('svc_dev_key_unit_revoked'),
      otherEnvironmentToken: fc.constant('svc_prod_key_unit_other'),
      resources: fc.constant({
        gpuVmIds: ['vm-gpu-0001'],
        natRules: [{ vpcId: 'v', natGatewayId: 'n', ruleId: 'r' }],
      }),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
      name: fc.constant('${UNIT_PARITY_SET}'),
    },
    { requiredKeys: [] },
  );
  /** At most one flaw, of the kinds users make: each is refused by both or by neither. */
  const flaw = fc.option(
    fc.constantFrom<Record<string, unknown>>(
      { concurrency: 0 },
      { concurrency: 33 },
      { concurrency: 2.5 },
      { strict: 'yes' },
      { maxResponseBytes: 1023 },
      { maxResponseBytes: 268_435_457 },
      { preflightTimeoutMs: 0 },
      { provision: { command: [] } },
      { provision: { command: 'node provision.mjs' } },
      { rateLimitPerSecond: 0 },
      { unsupportedRules: [{ id: 'idem', reason: 'r' }] },
      { mutation: true },
      { revokedToken: 'svc_dev_key_unit_full' },
      { otherEnvironmentToken: 'svc_dev_key_unit_other' },
      { workspaces: { primary: '1042', secondary: '1043', billingDenied: '1042' } },
      { workspaces: { primary: '1042', secondary: '1042' } },
      {
        identities: {
          ...minimal.identities,
          second: { token: 'svc_dev_key_unit_full', scopes: 'all', workspaces: 'all' },
        },
      },
      {
        identities: {
          ...minimal.identities,
          second: { token: 'svc_prod_key_unit_x', scopes: 'all', workspaces: 'all' },
        },
      },
      {
        identities: {
          ...minimal.identities,
          second: { token: 'svc_dev_key_unit_x', scopes: ['vm.fly'], workspaces: 'all' },
        },
      },
      { baseUrl: 'https://user:pw@host.example/v1' },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
      { name: '${UNIT_PARITY_UNSET}' },
    ),
    { nil: undefined },
  );
  const profileText = fc
    .tuple(validSettings, flaw)
    .map(([settings, oneFlaw]) => JSON.stringify({ ...minimal, ...settings, ...oneFlaw }));

  it('the sandbox accepts exactly the profiles this CLI accepts, and seeds a sandbox from each', () => {
    const env = { UNIT_PARITY_SET: 'parity' };
    let accepted = 0;
    fc.assert(
      fc.property(profileText, (text) => {
        const path = join(directory, 'profile.json');
        writeFileSync(path, text);
        let ours: string | undefined;
        let theirs: string | undefined;
        try {
          loadProfileFile(path, env);
        } catch (error) {
          ours = (error as Error).name;
        }
        try {
          createSandbox({ profile: readProfileFile(path, env) });
        } catch (error) {
          theirs = (error as Error).name;
        }
        expect(
          theirs === undefined,
          `${text}: conformance ${ours ?? 'accepts'}, sandbox ${theirs ?? 'accepts'}`,
        ).toBe(ours === undefined);
        if (ours === undefined) accepted += 1;
      }),
      { numRuns: 150, seed: 4217 },
    );
    // Both verdicts were reached: the property compared acceptances and refusals alike.
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(150);
  });
});

describe('redaction', () => {
  const profile = parseProfileText(
    JSON.stringify({
      ...minimal,
      revokedToken: 'svc_dev_key_unit_revoked',
      otherEnvironmentToken: 'svc_prod_key_unit_other',
    }),
    'unit.json',
  );

  it('masks every token of a profile, keeping only the prefix', () => {
    const redactor = createSecretRedactor(profileSecrets(profile));
    const text = JSON.stringify(redactProfile(profile, redactor));
    for (const secret of ['svc_dev_key_unit_full', 'svc_dev_key_unit_revoked', 'svc_prod_key_unit_other'])
      expect(text).not.toContain(secret);
    expect(redactProfile(profile, redactor).identities.full?.token).toBe('svc_dev_key_[redacted]');
    expect(maskToken('no-prefix')).toBe('[redacted]');
  });

  it("the loader gives the run's redactor every token and what the suite derives from it", () => {
    const redactor = createSecretRedactor();
    parseProfileText(
      JSON.stringify({
        ...minimal,
        identities: { full: { token: 'svc_dev_key_unit_derived', scopes: 'all', workspaces: 'all' } },
      }),
      'unit.json',
      {},
      redactor,
    );
    // ENV-1 sends the token's body under the other environment's prefix: masked too.
    expect(redactor.redact('svc_dev_key_unit_derived svc_prod_key_unit_derived unit_derived')).not.toMatch(
      /unit_derived/,
    );
  });

  it('removes tokens, their bodies and their base64 forms from any text', () => {
    const redactor = createSecretRedactor(profileSecrets(profile));
    const leak = `Bearer svc_dev_key_unit_full; swapped svc_prod_key_unit_full; basic ${Buffer.from('svc_dev_key_unit_full:').toString('base64')}`;
    const redacted = redactor.redact(leak);
    expect(redacted).not.toContain('unit_full');
    expect(redacted).not.toContain(Buffer.from('svc_dev_key_unit_full:').toString('base64'));
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
  it('treats every ${VAR} value as a secret: a base URL built from one is masked in the report profile', () => {
    const redactor = createSecretRedactor();
    const loaded = parseProfileText(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
      JSON.stringify({ ...minimal, baseUrl: 'https://${UNIT_HOST}/v1' }),
      'unit.json',
      { UNIT_HOST: 'staging.internal.example' },
      redactor,
    );
    expect(JSON.stringify(redactProfile(loaded, redactor))).not.toContain('staging.internal.example');
  });

  it('keeps values of token fields and variables out of validation errors', () => {
    const redactor = createSecretRedactor();
    expect(() =>
      parseProfileText(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
        JSON.stringify({ ...minimal, baseUrl: 'https://user:${UNIT_PASSWORD}@host.example/api' }),
        'unit.json',
        { UNIT_PASSWORD: 'pw7-unit-password' },
        redactor,
      ),
    ).toThrow(/baseUrl: .*must be an http\(s\) URL ending with \/v1/);
    try {
      parseProfileText(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
        JSON.stringify({ ...minimal, baseUrl: 'https://user:${UNIT_PASSWORD}@host.example/api' }),
        'unit.json',
        { UNIT_PASSWORD: 'pw7-unit-password' },
      );
    } catch (error) {
      expect((error as Error).message).not.toContain('pw7-unit-password');
    }
  });

  it('refuses a YAML alias that refers to itself, naming the field, instead of overflowing the stack', () => {
    expect(() => parseProfileText('name: x\nidentities: &self { loop: *self }\n', 'cyclic.yaml')).toThrow(
      /cyclic\.yaml: identities\.loop refers to itself through a YAML alias/,
    );
  });
});
