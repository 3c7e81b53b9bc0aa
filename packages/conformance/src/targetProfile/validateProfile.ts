import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { scopeNames, targetProfileSchema } from './profileSchema.js';
import type { TargetProfile } from './types.js';

/** A profile that does not follow the contract; `problems` name each wrong field. */
export class ProfileValidationError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    // One line, so a CI log shows every problem next to the file name.
    super(
      `Invalid target profile ${source}: ${problems.join('; ')}. Fix ${problems.length === 1 ? 'it' : 'them'} and run again (fields: schema/target-profile.schema.json).`,
    );
    this.name = 'ProfileValidationError';
  }
}

let compiled: ReturnType<Ajv2020['compile']> | undefined;

function validator(): ReturnType<Ajv2020['compile']> {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
    compiled = ajv.compile(targetProfileSchema());
  }
  return compiled;
}

/** `/identities/full/scopes/2` → `identities.full.scopes[2]`. */
export function fieldPath(instancePath: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  let path = '';
  for (const part of parts) path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${part}` : part;
  return path || '(root)';
}

function describe(error: ErrorObject, scopeCount: number): string {
  const field = fieldPath(error.instancePath);
  const shown = JSON.stringify(error.data);
  const isTokenField = /token$/i.test(field) || /Token$/.test(field);
  const value = isTokenField ? 'the value' : shown;
  switch (error.keyword) {
    case 'required':
      return `${field}: missing required field "${(error.params as { missingProperty: string }).missingProperty}"`;
    case 'additionalProperties':
      return `${field}: unknown field "${(error.params as { additionalProperty: string }).additionalProperty}" (check its spelling against schema/target-profile.schema.json)`;
    case 'enum':
      if (/\.scopes\[\d+\]$/.test(field))
        return `${field}: ${value} is not one of the ${scopeCount} scopes (${scopeNames().join(', ')})`;
      return `${field}: ${value} is not one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${field}: ${value} must be "all" or a list`;
    case 'pattern':
      if (field === 'baseUrl')
        return `baseUrl: ${value} must be an http(s) URL ending with /v1 (the version is part of the base address)`;
      if (/workspaces|Denied|primary|secondary/.test(field))
        return `${field}: ${value} must be a positive decimal workspace ID written as a string, e.g. "1042"`;
      return `${field}: ${value} does not match ${(error.params as { pattern: string }).pattern}`;
    case 'type':
      return `${field}: must be ${(error.params as { type: string }).type}, got ${Array.isArray(error.data) ? 'array' : error.data === null ? 'null' : typeof error.data}`;
    default:
      return `${field}: ${error.message ?? 'is invalid'}`;
  }
}

/** Keeps the most specific messages: an `anyOf` wrapper or a parent's error adds nothing once a child says what is wrong. */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject[] {
  const concrete = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  return concrete.filter(
    (e) =>
      !concrete.some(
        (other) =>
          other !== e &&
          other.instancePath.startsWith(`${e.instancePath}/`) &&
          (e.keyword === 'const' || e.keyword === 'type'),
      ),
  );
}

/** Checks what the schema cannot: token prefixes against the environment, identity workspaces. */
function crossFieldProblems(profile: TargetProfile): string[] {
  const problems: string[] = [];
  const expected = profile.environment === 'production' ? 'svc_prod_key_' : 'svc_dev_key_';
  const other = profile.environment === 'production' ? 'svc_dev_key_' : 'svc_prod_key_';
  for (const [name, identity] of Object.entries(profile.identities)) {
    if (identity.token.startsWith(other)) {
      problems.push(
        `identities.${name}.token: a ${profile.environment} profile's tokens start with ${expected}; this one is from the other environment (use otherEnvironmentToken for that)`,
      );
    }
  }
  if (profile.otherEnvironmentToken?.startsWith(expected)) {
    problems.push(
      `otherEnvironmentToken: must be a token of the other environment (prefix ${other}), not ${expected}`,
    );
  }
  if (profile.workspaces.primary === profile.workspaces.secondary) {
    problems.push('workspaces.secondary: must differ from workspaces.primary');
  }
  const base = URL.canParse(profile.baseUrl) ? new URL(profile.baseUrl) : undefined;
  if (!base) problems.push('baseUrl: is not a valid URL; write it as https://host[:port]/path/v1');
  else if (base.username || base.password)
    problems.push(
      "baseUrl: must not carry user credentials (user:password@host); the suite authenticates with the identities' tokens only",
    );
  return problems;
}

export function validateProfile(candidate: unknown, source: string): TargetProfile {
  const validate = validator();
  if (!validate(candidate)) {
    const scopeCount = scopeNames().length;
    const problems = [...new Set(mostSpecific(validate.errors ?? []).map((e) => describe(e, scopeCount)))];
    throw new ProfileValidationError(source, problems);
  }
  const profile = candidate as TargetProfile;
  const problems = crossFieldProblems(profile);
  if (problems.length > 0) throw new ProfileValidationError(source, problems);
  return profile;
}
