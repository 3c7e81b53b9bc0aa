import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { LOOKS_LIKE_TOKEN, printableKey } from './fieldNames.js';
import {
  type ProfileEnvironment,
  profileResourcesSchema,
  scopeNames,
  type TargetProfile,
  targetProfileSchema,
  tokenPrefixes,
} from './profileSchema.js';
import { targetProfileSchemaPath } from './schemaFile.js';

/** A profile that does not follow the contract; `problems` name each wrong field. */
export class ProfileValidationError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    // One line, so a CI log shows every problem next to the file name.
    super(
      `Invalid target profile ${source}: ${problems.join('; ')}. Fix ${problems.length === 1 ? 'it' : 'them'} and run again (fields: ${targetProfileSchemaPath}).`,
    );
    this.name = 'ProfileValidationError';
  }
}

let compiled: ValidateFunction | undefined;
let compiledResources: ValidateFunction | undefined;

/** An ajv (draft 2020-12) validator of `schema`, with the options every message below relies on. */
function compile(schema: object): ValidateFunction {
  // validateSchema: false skips compiling the draft 2020-12 meta-schema (half the cost of this
  // compile); test/schemaFile.test.ts checks the schema against it with ajv in strict mode.
  const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true, validateSchema: false });
  return ajv.compile(schema);
}

/** The validator compiled from targetProfileSchema(), once per process. */
function validator(): ValidateFunction {
  compiled ??= compile(targetProfileSchema());
  return compiled;
}

/** The validator of the `resources` section alone, compiled only when a provision command's output is read. */
function resourcesValidator(): ValidateFunction {
  compiledResources ??= compile(profileResourcesSchema());
  return compiledResources;
}

/** `/identities/full/scopes/2` → `identities.full.scopes[2]` (a key that looks like a token is masked). */
export function fieldPath(instancePath: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  let path = '';
  for (const part of parts)
    path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${printableKey(part)}` : printableKey(part);
  return path || '(root)';
}

function describe(error: ErrorObject, scopes: readonly string[]): string {
  const field = fieldPath(error.instancePath);
  const shown = JSON.stringify(error.data);
  const isTokenField = /token$/i.test(field);
  const value = isTokenField || LOOKS_LIKE_TOKEN.test(shown ?? '') ? 'the value' : shown;
  switch (error.keyword) {
    case 'required':
      return `${field}: missing required field "${(error.params as { missingProperty: string }).missingProperty}"`;
    case 'additionalProperties': {
      const key = (error.params as { additionalProperty: string }).additionalProperty;
      const printable = printableKey(key);
      const allowed = Object.keys(
        (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {},
      );
      return `${field}: unknown field ${printable === key ? `"${key}"` : printable} (check its spelling against ${targetProfileSchemaPath}; the fields allowed here are ${allowed.join(', ')})`;
    }
    case 'enum':
      if (/\.scopes\[\d+\]$/.test(field))
        return `${field}: ${value} is not one of the ${scopes.length} scopes (${scopes.join(', ')})`;
      return `${field}: ${value} is not one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${field}: ${value} must be "all" or a list`;
    case 'pattern':
      if (field === 'baseUrl')
        return `baseUrl: ${value} must be an http(s) URL ending with /v1 (the version is part of the base address)${value === shown ? baseUrlRemedy(error.data) : ''}`;
      if (/workspaces|Denied|primary|secondary/.test(field))
        return `${field}: ${value} must be a positive decimal workspace ID written as a string, e.g. "1042"`;
      return `${field}: ${value} does not match ${(error.params as { pattern: string }).pattern}`;
    case 'uniqueItems': {
      const { i, j } = error.params as { i: number; j: number };
      const item = JSON.stringify((error.data as unknown[])[i]);
      const shownItem = isTokenField || LOOKS_LIKE_TOKEN.test(item ?? '') ? 'a value' : item;
      return `${field}: lists ${shownItem} twice, at [${Math.min(i, j)}] and [${Math.max(i, j)}]`;
    }
    case 'type':
      return `${field}: must be ${(error.params as { type: string }).type}, got ${Array.isArray(error.data) ? 'array' : error.data === null ? 'null' : typeof error.data}`;
    default:
      return `${field}: ${error.message ?? 'is invalid'}`;
  }
}

/**
 * Keeps the most specific messages. An `anyOf` wrapper adds nothing once a branch says what is
 * wrong, and neither does a branch's "not this type" or "not `all`" once another error speaks
 * about the same value or a part of it (`scopes: [vm.read, vm.read]` has duplicates; it is a
 * list). For a value of the wrong kind altogether, "must be "all" or a list" says it all.
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject[] {
  const concrete = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const isShape = (e: ErrorObject) => e.keyword === 'const' || e.keyword === 'type';
  return concrete.filter((e) => {
    if (!isShape(e)) return true;
    const about = (other: ErrorObject) =>
      other !== e &&
      (other.instancePath.startsWith(`${e.instancePath}/`) ||
        (other.instancePath === e.instancePath && !isShape(other)));
    if (concrete.some(about)) return false;
    return !(
      e.keyword === 'type' &&
      concrete.some((other) => other.keyword === 'const' && other.instancePath === e.instancePath)
    );
  });
}

/**
 * What JSON Schema cannot say: tokens against the environment's prefix, every token distinct,
 * workspaces that must differ, and a base URL that parses and carries no credentials. Messages
 * name fields, never a token.
 */
function crossFieldProblems(profile: TargetProfile): string[] {
  const problems: string[] = [];
  const prefixes = tokenPrefixes();
  const environment: ProfileEnvironment = profile.environment;
  const otherEnvironment: ProfileEnvironment = environment === 'production' ? 'development' : 'production';
  const expected = prefixes[environment];
  const other = prefixes[otherEnvironment];
  const owners = new Map<string, string>();
  const tokens: [string, string | undefined][] = [
    ...Object.entries(profile.identities).map(([name, identity]): [string, string] => [
      `identities.${printableKey(name)}.token`,
      identity.token,
    ]),
    ['revokedToken', profile.revokedToken],
    ['otherEnvironmentToken', profile.otherEnvironmentToken],
  ];
  // A header value with a newline is refused by the HTTP client before it is sent, and one with a
  // space reaches the target as another token: either way the target would be blamed.
  const spaced = new Set<string>();
  for (const [field, token] of tokens)
    if (token !== undefined && /[\s\p{Cc}]/u.test(token)) {
      spaced.add(field);
      problems.push(
        `${field}: contains whitespace or a control character (a stray newline or space, often from an environment variable or a file it was read from); remove it`,
      );
    }
  for (const [name, identity] of Object.entries(profile.identities)) {
    const field = `identities.${printableKey(name)}.token`;
    if (spaced.has(field)) continue;
    if (identity.token.startsWith(other)) {
      problems.push(
        `${field}: a ${environment} profile's tokens start with ${expected}; this one is from the other environment (use otherEnvironmentToken for that)`,
      );
    } else if (!identity.token.startsWith(expected)) {
      problems.push(
        `${field}: a ${environment} profile's tokens start with ${expected} (the API binds each token to its environment by that prefix)`,
      );
    }
    const owner = owners.get(identity.token);
    if (owner)
      problems.push(`${field}: is the same token as ${owner}; each identity needs a token of its own`);
    else owners.set(identity.token, field);
  }
  for (const field of ['revokedToken', 'otherEnvironmentToken'] as const) {
    const token = profile[field];
    const owner = token === undefined ? undefined : owners.get(token);
    if (owner) problems.push(`${field}: is the same token as ${owner}; it must be another token`);
  }
  // A token without its environment's prefix is malformed, which AUTH-1 covers: AUTH-3 would then
  // pass on a 401 for malformation, not revocation, and the environment check likewise.
  const revoked = profile.revokedToken;
  if (revoked !== undefined && !spaced.has('revokedToken') && !revoked.startsWith(expected)) {
    problems.push(
      `revokedToken: must be a revoked token of this environment (prefix ${expected}); without it a refusal would only show the token is malformed, not that revocation is honoured`,
    );
  }
  const foreign = profile.otherEnvironmentToken;
  if (foreign !== undefined && !spaced.has('otherEnvironmentToken') && !foreign.startsWith(other)) {
    problems.push(
      foreign.startsWith(expected)
        ? `otherEnvironmentToken: must be a token of the other environment (prefix ${other}), not ${expected}`
        : `otherEnvironmentToken: must be a token of the other environment (prefix ${other}); without it a refusal would only show the token is malformed`,
    );
  }
  if (profile.workspaces.primary === profile.workspaces.secondary) {
    problems.push('workspaces.secondary: must differ from workspaces.primary');
  }
  if (profile.workspaces.billingDenied === profile.workspaces.primary) {
    problems.push('workspaces.billingDenied: must differ from workspaces.primary');
  }
  const base = URL.canParse(profile.baseUrl) ? new URL(profile.baseUrl) : undefined;
  if (!base) problems.push('baseUrl: is not a valid URL; write it as https://host[:port]/path/v1');
  else if (base.username || base.password)
    problems.push(
      "baseUrl: must not carry user credentials (user:password@host); the suite authenticates with the identities' tokens only",
    );
  return problems;
}

/**
 * Every problem of a candidate profile, each naming its field (empty when it is valid): the
 * schema's first, and the cross-field checks only once the schema holds. Never quotes a token.
 */
export function profileProblems(candidate: unknown): string[] {
  const validate = validator();
  if (!validate(candidate)) {
    const scopes = scopeNames();
    return [...new Set(mostSpecific(validate.errors ?? []).map((e) => describe(e, scopes)))];
  }
  return crossFieldProblems(candidate as TargetProfile);
}

/**
 * Every problem of a candidate `resources` section (what a provision command prints), each named
 * as the profile field it would be (`resources.deletableGpuVmIds[0]: must be string, got number`);
 * empty when it is valid.
 */
export function resourcesProblems(candidate: unknown): string[] {
  const validate = resourcesValidator();
  if (validate(candidate)) return [];
  return [
    ...new Set(
      mostSpecific(validate.errors ?? []).map((error) =>
        describe({ ...error, instancePath: `/resources${error.instancePath}` }, []),
      ),
    ),
  ];
}

/** The candidate as a TargetProfile, or a ProfileValidationError naming every wrong field. */
export function validateProfile(candidate: unknown, source: string): TargetProfile {
  const problems = profileProblems(candidate);
  if (problems.length > 0) throw new ProfileValidationError(source, problems);
  return candidate as TargetProfile;
}

/**
 * The likely intended base URL, for the two slips people make: a trailing slash, /v1 left off.
 * Only a plain URL is echoed: one with credentials, a query or a fragment may carry a secret.
 */
function baseUrlRemedy(data: unknown): string {
  if (typeof data !== 'string' || !URL.canParse(data)) return '';
  const url = new URL(data);
  if (url.username || url.password || url.search || url.hash || !/^https?:$/.test(url.protocol)) return '';
  if (/\s/.test(data)) return '';
  const trimmed = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  if (trimmed.endsWith('/v1')) return `; remove the trailing slash: ${JSON.stringify(trimmed)}`;
  if (!/\/v\d+$/.test(trimmed))
    return `; if the API is served under /v1 there, write ${JSON.stringify(`${trimmed}/v1`)}`;
  return '';
}
