import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { createSecretRedactor, type SecretRedactor } from '../secrets/secretRedactor.js';
import { expandEnvironmentReferences } from './expandEnv.js';
import { profileSecrets } from './redaction.js';
import type { TargetProfile } from './types.js';
import { ProfileValidationError, validateProfile } from './validateProfile.js';

export class ProfileFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileFileError';
  }
}

/** Deeper than any profile the schema allows; a deeper document is a mistake or an attack on the parser. */
const MAX_DEPTH = 32;

/**
 * A YAML alias can make a document refer to itself (`a: &x [*x]`); the parser then returns a
 * cyclic value that no later step could walk. Refused here with the field where it happens.
 */
function checkTree(value: unknown, source: string, path: string, onPath: Set<object>, depth: number): void {
  if (!value || typeof value !== 'object') return;
  const where = path || '(root)';
  if (onPath.has(value))
    throw new ProfileFileError(
      `${source}: ${where} refers to itself through a YAML alias (&anchor / *alias), so it has no value. Write the value out instead of the alias and run again.`,
    );
  if (depth > MAX_DEPTH)
    throw new ProfileFileError(
      `${source}: ${where} is nested more than ${MAX_DEPTH} levels deep; a target profile is a few levels deep (see schema/target-profile.schema.json).`,
    );
  onPath.add(value);
  const entries = Array.isArray(value)
    ? value.map((item, index) => [`${path}[${index}]`, item] as const)
    : Object.entries(value).map(([key, item]) => [path ? `${path}.${key}` : key, item] as const);
  for (const [childPath, item] of entries) checkTree(item, source, childPath, onPath, depth + 1);
  onPath.delete(value);
}

/** Values of every field named like a token, wherever it stands (also in a profile that is invalid). */
function tokenFieldValues(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return /token$/i.test(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => tokenFieldValues(item, key));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([name, item]) => tokenFieldValues(item, name));
  return [];
}

/**
 * Parses profile text (YAML is a superset of JSON, so both go through the YAML parser). Every
 * secret it meets (token fields, `${VAR}` values) goes to `redactor`, and no error it throws
 * contains one.
 */
export function parseProfileText(
  text: string,
  source: string,
  env: NodeJS.ProcessEnv = process.env,
  redactor: SecretRedactor = createSecretRedactor(),
): TargetProfile {
  let raw: unknown;
  try {
    // Only the first line of the parser's message: later lines quote the source, tokens included.
    raw = parseYaml(text);
  } catch (error) {
    const first = (error as Error).message.split('\n')[0]?.replace(/:$/, '') ?? 'syntax error';
    redactor.add(...tokenFieldValues(parseLeniently(text)));
    throw new ProfileFileError(
      redactor.redact(`${source} is not valid YAML or JSON: ${first}. Fix the syntax there and run again.`),
    );
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ProfileFileError(
      `${source} must contain a mapping (name, baseUrl, environment, identities, ...), see schema/target-profile.schema.json`,
    );
  }
  checkTree(raw, source, '', new Set(), 0);
  redactor.add(...tokenFieldValues(raw));
  const expanded: string[] = [];
  let candidate: unknown;
  try {
    candidate = expandEnvironmentReferences(raw, env, '', expanded);
  } finally {
    redactor.add(...expanded);
  }
  redactor.add(...tokenFieldValues(candidate));
  try {
    const profile = validateProfile(candidate, source);
    redactor.add(...profileSecrets(profile));
    return profile;
  } catch (error) {
    if (error instanceof ProfileValidationError)
      throw new ProfileValidationError(
        source,
        error.problems.map((problem) => redactor.redact(problem)),
      );
    throw error;
  }
}

/** The document's values as far as they parse, for finding token fields to keep out of an error. */
function parseLeniently(text: string): unknown {
  const tokens: Record<string, string> = {};
  for (const match of text.matchAll(/^\s*["']?([A-Za-z_]*token)["']?\s*:\s*["']?([^"'\s#,}]+)/gim))
    tokens[match[1] as string] = match[2] as string;
  return tokens;
}

export function loadProfileFile(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  redactor?: SecretRedactor,
): TargetProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProfileFileError(
      code === 'ENOENT'
        ? `Profile file ${path} does not exist. Pass --target prism, --target sandbox, or a path to a profile (see profiles/staging.example.yaml).`
        : code === 'EISDIR'
          ? `Profile ${path} is a directory. Pass the path of a profile file (YAML or JSON).`
          : `Cannot read profile ${path}: ${code ?? (error as Error).message}`,
    );
  }
  return parseProfileText(text, path, env, redactor);
}
