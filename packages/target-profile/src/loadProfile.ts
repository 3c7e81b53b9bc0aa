import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { expandEnvironmentReferences, MIN_SECRET_LENGTH } from './expandEnv.js';
import { childField } from './fieldNames.js';
import type { TargetProfile } from './profileSchema.js';
import { ProfileValidationError, validateProfile } from './validateProfile.js';

/** A profile file that cannot be read or parsed. `code` is the file-system error code, if any. */
export class ProfileFileError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ProfileFileError';
  }
}

/**
 * Where the loader puts every secret it meets (token fields, `${VAR}` values), and how it keeps
 * them out of its errors. The conformance suite passes its run's redactor; by default the loader
 * uses its own (createProfileRedactor).
 */
export interface ProfileRedactor {
  add(...secrets: readonly string[]): void;
  redact(text: string): string;
}

/** A redactor that replaces every registered secret (longest first) with `[redacted]`. */
export function createProfileRedactor(): ProfileRedactor {
  const secrets = new Set<string>();
  return {
    add(...added) {
      for (const secret of added) if (typeof secret === 'string' && secret.length > 0) secrets.add(secret);
    },
    redact(text) {
      let result = text;
      for (const secret of [...secrets].sort((a, b) => b.length - a.length))
        result = result.replaceAll(secret, '[redacted]');
      return result;
    },
  };
}

/** What a file-system error code means to someone who typed a path. */
export function describeFileError(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EISDIR':
      return 'it is a directory, not a file';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    default:
      return code ?? 'unreadable';
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
    : Object.entries(value).map(([key, item]) => [childField(path, key), item] as const);
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

/** The document's token values as far as they parse, to keep them out of a syntax error. */
function tokenValuesLeniently(text: string): string[] {
  return [...text.matchAll(/^\s*["']?[A-Za-z_]*token["']?\s*:\s*["']?([^"'\s#,}]+)/gim)].map(
    (match) => match[1] as string,
  );
}

export interface ParseProfileOptions {
  /** Where `${NAME}` references are read from (default: process.env). */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Receives every secret met; its `redact` cleans every error thrown (default: a fresh one). */
  readonly redactor?: ProfileRedactor | undefined;
}

/**
 * Parses profile text (YAML is a superset of JSON, so both go through the YAML parser), expands
 * `${NAME}` references from the environment and validates the result. Every secret it meets
 * (token fields, `${VAR}` values) goes to the redactor, and no error it throws contains one:
 * ProfileFileError (syntax, not a mapping, an alias loop), MissingEnvironmentVariableError,
 * ProfileValidationError.
 */
export function parseProfileText(
  text: string,
  source: string,
  options: ParseProfileOptions = {},
): TargetProfile {
  const env = options.env ?? process.env;
  const redactor = options.redactor ?? createProfileRedactor();
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    // Only the first line of the parser's message: later lines quote the source, tokens included.
    const first = (error as Error).message.split('\n')[0]?.replace(/:$/, '') ?? 'syntax error';
    redactor.add(...tokenValuesLeniently(text));
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
    // A value too short to mask safely is refused before it is used, and the refusal names only
    // its variable: masked, it would hide ordinary words of that very message.
    redactor.add(...expanded.filter((value) => value.length >= MIN_SECRET_LENGTH));
  }
  redactor.add(...tokenFieldValues(candidate));
  try {
    return validateProfile(candidate, source);
  } catch (error) {
    if (error instanceof ProfileValidationError)
      throw new ProfileValidationError(
        source,
        error.problems.map((problem) => redactor.redact(problem)),
      );
    throw error;
  }
}

/**
 * Reads and parses a profile file (see parseProfileText). A file that cannot be read is a
 * ProfileFileError carrying the file-system `code`, so a command can say what to do instead.
 */
export function loadProfileFile(path: string, options: ParseProfileOptions = {}): TargetProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProfileFileError(`Cannot read the profile ${path} (${describeFileError(code)}).`, code);
  }
  return parseProfileText(text, path, options);
}
