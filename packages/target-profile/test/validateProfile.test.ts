import { describe, expect, it } from 'vitest';
import {
  ProfileValidationError,
  profileProblems,
  resourcesProblems,
  scopeNames,
  targetProfileSchemaPath,
  validateProfile,
} from '../src/index.js';

const minimal = {
  name: 'unit',
  baseUrl: 'http://127.0.0.1:4010/v1',
  environment: 'development',
  identities: { full: { token: 'svc_dev_key_unit_full', scopes: 'all', workspaces: 'all' } },
  workspaces: { primary: '1042', secondary: '1043' },
  billing: { skuCode: 'cloud-vm-standard-2' },
};

/** Every field the schema knows, each with a valid value. */
const complete = {
  $schema: '../schema/target-profile.schema.json',
  ...minimal,
  identities: {
    full: { token: 'svc_dev_key_unit_full', scopes: 'all', workspaces: 'all' },
    readOnly: { token: 'svc_dev_key_unit_read', scopes: ['vm.read'], workspaces: ['1042', '1043'] },
  },
  revokedToken: 'svc_dev_key_unit_revoked',
  otherEnvironmentToken: 'svc_prod_key_unit_other',
  workspaces: { primary: '1042', secondary: '1043', billingDenied: '1044' },
  resources: {
    gpuVmIds: ['vm-gpu-0001'],
    deletableGpuVmIds: ['vm-gpu-0101'],
    restoreIds: ['rst-0001'],
    natRules: [{ vpcId: 'vpc-0001', natGatewayId: 'natgw-0001', ruleId: 'pfr-0001' }],
    releasableReservedIpIds: ['rip-0001'],
  },
  mutations: true,
  allowProduction: false,
  requestTimeoutMs: 10_000,
  preflightTimeoutMs: 5_000,
  rateLimitPerSecond: 20,
  concurrency: 4,
  maxResponseBytes: 1_048_576,
  strict: true,
  unsupportedRules: [{ id: 'IDEM-2', reason: 'no idempotency store yet' }],
  provision: { command: ['node', 'provision.mjs', '--pool', 'pool.json'], timeoutMs: 60_000 },
};

const withIdentity = (identity: Record<string, unknown>) => ({
  ...minimal,
  identities: { full: { token: 'svc_dev_key_unit_full', scopes: 'all', workspaces: 'all', ...identity } },
});

describe('validateProfile: the schema', () => {
  it('accepts a minimal profile and one holding every field, returning it unchanged', () => {
    expect(validateProfile(minimal, 'unit.json')).toBe(minimal);
    expect(profileProblems(complete)).toEqual([]);
  });

  it('accepts concurrency, strict and maxResponseBytes within their bounds, and names them outside', () => {
    expect(profileProblems({ ...minimal, concurrency: 1, strict: false, maxResponseBytes: 1024 })).toEqual(
      [],
    );
    expect(profileProblems({ ...minimal, concurrency: 32, maxResponseBytes: 268_435_456 })).toEqual([]);
    // A JavaScript string holds at most about 512 MiB: a larger limit could never be read whole.
    expect(profileProblems({ ...minimal, maxResponseBytes: 268_435_457 })).toEqual([
      'maxResponseBytes: must be <= 268435456',
    ]);
    expect(profileProblems({ ...minimal, concurrency: 0 })).toEqual(['concurrency: must be >= 1']);
    expect(profileProblems({ ...minimal, concurrency: 33 })).toEqual(['concurrency: must be <= 32']);
    expect(profileProblems({ ...minimal, concurrency: 2.5 })).toEqual([
      'concurrency: must be integer, got number',
    ]);
    expect(profileProblems({ ...minimal, maxResponseBytes: 1023 })).toEqual([
      'maxResponseBytes: must be >= 1024',
    ]);
    expect(profileProblems({ ...minimal, strict: 'yes' })).toEqual(['strict: must be boolean, got string']);
    expect(profileProblems({ ...minimal, preflightTimeoutMs: 99 })).toEqual([
      'preflightTimeoutMs: must be >= 100',
    ]);
  });

  it('accepts a provision command as a non-empty argv list with an optional timeout, and names what is wrong', () => {
    expect(profileProblems({ ...minimal, provision: { command: ['./provision'] } })).toEqual([]);
    expect(profileProblems({ ...minimal, provision: { command: [] } })).toEqual([
      'provision.command: must NOT have fewer than 1 items',
    ]);
    expect(profileProblems({ ...minimal, provision: { command: 'node provision.mjs' } })).toEqual([
      'provision.command: must be array, got string',
    ]);
    expect(profileProblems({ ...minimal, provision: { command: ['node', ''] } })).toEqual([
      'provision.command[1]: must NOT have fewer than 1 characters',
    ]);
    expect(profileProblems({ ...minimal, provision: { command: ['x'], timeoutMs: 10 } })).toEqual([
      'provision.timeoutMs: must be >= 1000',
    ]);
    expect(profileProblems({ ...minimal, provision: { run: ['x'] } })[0]).toMatch(
      /^provision: missing required field "command"/,
    );
  });

  it('checks what a provision command prints as a resources section, naming each field as in a profile', () => {
    expect(resourcesProblems(complete.resources)).toEqual([]);
    expect(resourcesProblems({})).toEqual([]);
    expect(resourcesProblems([])).toEqual(['resources: must be object, got array']);
    expect(resourcesProblems({ deletableGpuVmIds: ['vm-1', 7] })).toEqual([
      'resources.deletableGpuVmIds[1]: must be string, got number',
    ]);
    expect(resourcesProblems({ natRules: [{ vpcId: 'v', natGatewayId: 'n' }] })).toEqual([
      'resources.natRules[0]: missing required field "ruleId"',
    ]);
    expect(resourcesProblems({ deletableVms: ['vm-1'] })[0]).toMatch(
      /^resources: unknown field "deletableVms" \(.*the fields allowed here are gpuVmIds, deletableGpuVmIds, restoreIds, natRules, releasableReservedIpIds, bucketListsDiffer\)$/,
    );
  });

  it('names a missing field, and an unknown one with the fields allowed there', () => {
    const { billing: _billing, ...withoutBilling } = minimal;
    expect(profileProblems(withoutBilling)).toEqual(['(root): missing required field "billing"']);
    const [unknown] = profileProblems({ ...minimal, revokedTokn: 'x' });
    expect(unknown).toMatch(
      /^\(root\): unknown field "revokedTokn" \(check its spelling against \/\S+\/schema\/target-profile\.schema\.json; the fields allowed here are \$schema, name, baseUrl, .*revokedToken.*\)$/,
    );
    expect(
      profileProblems({ ...minimal, workspaces: { primary: '1042', secondary: '1043', denied: '9' } }),
    ).toEqual([
      `workspaces: unknown field "denied" (check its spelling against ${targetProfileSchemaPath}; the fields allowed here are primary, secondary, billingDenied)`,
    ]);
  });

  it('names the wrong scope and its position, listing the spec scopes', () => {
    const problems = profileProblems(withIdentity({ scopes: ['vm.read', 'billing.read', 'vm.wrte'] }));
    expect(problems).toEqual([
      `identities.full.scopes[2]: "vm.wrte" is not one of the 16 scopes (${scopeNames().join(', ')})`,
    ]);
    expect(scopeNames()).toHaveLength(16);
    expect(profileProblems(withIdentity({ scopes: ['vm.read', 'vm.read'] }))).toEqual([
      'identities.full.scopes: lists "vm.read" twice, at [0] and [1]',
    ]);
    expect(profileProblems(withIdentity({ scopes: 5 }))).toEqual([
      'identities.full.scopes: 5 must be "all" or a list',
    ]);
    expect(profileProblems(withIdentity({ workspaces: [] }))).toEqual([
      'identities.full.workspaces: must NOT have fewer than 1 items',
    ]);
  });

  it('explains malformed values: base URL, workspace IDs, environment, "all" or a list, types', () => {
    expect(profileProblems({ ...minimal, baseUrl: 'http://127.0.0.1:4010/v2' })).toEqual([
      'baseUrl: "http://127.0.0.1:4010/v2" must be an http(s) URL ending with /v1 (the version is part of the base address)',
    ]);
    expect(profileProblems({ ...minimal, baseUrl: 'https://api.example.com/v1/' })).toEqual([
      'baseUrl: "https://api.example.com/v1/" must be an http(s) URL ending with /v1 (the version is part of the base address); remove the trailing slash: "https://api.example.com/v1"',
    ]);
    expect(profileProblems({ ...minimal, baseUrl: 'https://api.example.com/cloud' })).toEqual([
      'baseUrl: "https://api.example.com/cloud" must be an http(s) URL ending with /v1 (the version is part of the base address); if the API is served under /v1 there, write "https://api.example.com/cloud/v1"',
    ]);
    // A URL that may carry a secret is not echoed back as a suggestion.
    expect(profileProblems({ ...minimal, baseUrl: 'https://api.example.com/v1/?key=abc' })).toEqual([
      'baseUrl: "https://api.example.com/v1/?key=abc" must be an http(s) URL ending with /v1 (the version is part of the base address)',
    ]);
    expect(profileProblems({ ...minimal, workspaces: { primary: '0', secondary: '1043' } })).toEqual([
      'workspaces.primary: "0" must be a positive decimal workspace ID written as a string, e.g. "1042"',
    ]);
    expect(profileProblems(withIdentity({ workspaces: ['1042', '01'] }))).toEqual([
      'identities.full.workspaces[1]: "01" must be a positive decimal workspace ID written as a string, e.g. "1042"',
    ]);
    expect(profileProblems({ ...minimal, environment: 'staging' })).toEqual([
      'environment: "staging" is not one of "development", "production"',
    ]);
    expect(profileProblems(withIdentity({ workspaces: 'some' }))).toEqual([
      'identities.full.workspaces: "some" must be "all" or a list',
    ]);
    expect(profileProblems({ ...minimal, name: 5 })).toEqual(['name: must be string, got number']);
    expect(profileProblems({ ...minimal, identities: {} })).toEqual([
      'identities: must NOT have fewer than 1 properties',
    ]);
    expect(profileProblems({ ...minimal, unsupportedRules: [{ id: 'idem2', reason: 'r' }] })).toEqual([
      'unsupportedRules[0].id: "idem2" does not match ^[A-Z]+-\\d+$',
    ]);
  });

  it('never echoes a token: not a token field value, a key that looks like one, or a token-like value elsewhere', () => {
    const token = 'svc_dev_key_must_not_print';
    const problems = [
      ...profileProblems(withIdentity({ token: 5 })),
      ...profileProblems({ ...minimal, [token]: true }),
      ...profileProblems({
        ...minimal,
        identities: { [token]: { token: 'svc_dev_key_unit_full', scopes: 'x', workspaces: 'all' } },
      }),
      ...profileProblems({ ...minimal, workspaces: { primary: token, secondary: '1043' } }),
      ...profileProblems({ ...minimal, environment: token }),
    ];
    expect(problems).toContain(
      `(root): unknown field (a key that looks like a token) (check its spelling against ${targetProfileSchemaPath}; the fields allowed here are $schema, name, baseUrl, environment, identities, revokedToken, otherEnvironmentToken, workspaces, resources, provision, billing, createCloudVmBody, mutations, allowProduction, requestTimeoutMs, preflightTimeoutMs, rateLimitPerSecond, concurrency, maxResponseBytes, strict, unsupportedRules)`,
    );
    expect(problems).toContain(
      'identities.(a key that looks like a token).scopes: "x" must be "all" or a list',
    );
    expect(problems).toContain(
      'workspaces.primary: the value must be a positive decimal workspace ID written as a string, e.g. "1042"',
    );
    expect(problems.join('\n')).not.toContain('svc_');
  });

  it('throws one ProfileValidationError naming the source and every problem', () => {
    let error: unknown;
    try {
      validateProfile({ ...minimal, name: '', concurrency: 0 }, 'unit.yaml');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProfileValidationError);
    expect((error as ProfileValidationError).problems).toEqual([
      'name: must NOT have fewer than 1 characters',
      'concurrency: must be >= 1',
    ]);
    expect((error as Error).message).toBe(
      `Invalid target profile unit.yaml: name: must NOT have fewer than 1 characters; concurrency: must be >= 1. Fix them and run again (fields: ${targetProfileSchemaPath}).`,
    );
  });
});

describe('validateProfile: what JSON Schema cannot say', () => {
  it('refuses a token of the other environment, or without the environment prefix, without printing it', () => {
    const problems = [
      ...profileProblems(withIdentity({ token: 'svc_prod_key_unit_wrong_environment' })),
      ...profileProblems(withIdentity({ token: 'plain-token-unit' })),
      ...profileProblems({ ...minimal, otherEnvironmentToken: 'svc_dev_key_unit_same_environment' }),
    ];
    expect(problems).toEqual([
      "identities.full.token: a development profile's tokens start with svc_dev_key_; this one is from the other environment (use otherEnvironmentToken for that)",
      "identities.full.token: a development profile's tokens start with svc_dev_key_ (the API binds each token to its environment by that prefix)",
      'otherEnvironmentToken: must be a token of the other environment (prefix svc_prod_key_), not svc_dev_key_',
    ]);
    expect(
      profileProblems({
        ...minimal,
        environment: 'production',
        identities: { full: { token: 'svc_prod_key_unit', scopes: 'all', workspaces: 'all' } },
        otherEnvironmentToken: 'svc_dev_key_unit_other',
      }),
    ).toEqual([]);
  });

  it('refuses a revoked or other-environment token without its prefix: a refusal would only show it is malformed', () => {
    expect(profileProblems({ ...minimal, revokedToken: 'abc', otherEnvironmentToken: 'unit-other' })).toEqual(
      [
        'revokedToken: must be a revoked token of this environment (prefix svc_dev_key_); without it a refusal would only show the token is malformed, not that revocation is honoured',
        'otherEnvironmentToken: must be a token of the other environment (prefix svc_prod_key_); without it a refusal would only show the token is malformed',
      ],
    );
    expect(profileProblems({ ...minimal, revokedToken: 'svc_prod_key_unit_revoked' })).toHaveLength(1);
  });

  it('refuses a token holding whitespace or a control character, naming the field and never the token', () => {
    const problems = [
      ...profileProblems(withIdentity({ token: 'svc_dev_key_unit_newline\n' })),
      ...profileProblems(withIdentity({ token: ' svc_dev_key_unit_leading_space' })),
      ...profileProblems({ ...minimal, revokedToken: 'svc_dev_key_unit_revoked\r' }),
      ...profileProblems({ ...minimal, otherEnvironmentToken: 'svc_prod_key_unit\tother' }),
    ];
    expect(problems).toEqual([
      'identities.full.token: contains whitespace or a control character (a stray newline or space, often from an environment variable or a file it was read from); remove it',
      'identities.full.token: contains whitespace or a control character (a stray newline or space, often from an environment variable or a file it was read from); remove it',
      'revokedToken: contains whitespace or a control character (a stray newline or space, often from an environment variable or a file it was read from); remove it',
      'otherEnvironmentToken: contains whitespace or a control character (a stray newline or space, often from an environment variable or a file it was read from); remove it',
    ]);
    expect(problems.join()).not.toMatch(/unit/);
  });

  it('needs a token of its own for every identity, the revoked and the other-environment token', () => {
    const shared = 'svc_dev_key_unit_shared';
    const problems = profileProblems({
      ...minimal,
      identities: {
        full: { token: shared, scopes: 'all', workspaces: 'all' },
        readOnly: { token: shared, scopes: ['vm.read'], workspaces: 'all' },
      },
      revokedToken: shared,
    });
    expect(problems).toEqual([
      'identities.readOnly.token: is the same token as identities.full.token; each identity needs a token of its own',
      'revokedToken: is the same token as identities.full.token; it must be another token',
    ]);
  });

  it('needs distinct primary and secondary workspaces, and a billing-denied one that is not the primary', () => {
    expect(profileProblems({ ...minimal, workspaces: { primary: '7', secondary: '7' } })).toEqual([
      'workspaces.secondary: must differ from workspaces.primary',
    ]);
    expect(
      profileProblems({ ...minimal, workspaces: { primary: '7', secondary: '8', billingDenied: '7' } }),
    ).toEqual(['workspaces.billingDenied: must differ from workspaces.primary']);
  });

  it('refuses a base URL carrying user credentials, without printing them', () => {
    const problems = profileProblems({ ...minimal, baseUrl: 'https://ops:hunter2@api.example.invalid/v1' });
    expect(problems).toEqual([
      "baseUrl: must not carry user credentials (user:password@host); the suite authenticates with the identities' tokens only",
    ]);
  });

  it('checks across fields only once the schema holds', () => {
    expect(profileProblems({ ...minimal, name: 5, workspaces: { primary: '7', secondary: '7' } })).toEqual([
      'name: must be string, got number',
    ]);
  });
});
