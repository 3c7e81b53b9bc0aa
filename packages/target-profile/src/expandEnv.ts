import { childField } from './fieldNames.js';

/** One `${NAME}` reference to an unset variable, and the field that holds it. */
export interface MissingVariable {
  readonly variable: string;
  readonly field: string;
}

/**
 * Thrown when `${NAME}` references name unset variables: every one of them at once, so a user
 * exports them all in one go. Never carries a value.
 */
export class MissingEnvironmentVariableError extends Error {
  /** The first missing variable (and its field); `missing` lists them all. */
  readonly variable: string;
  readonly field: string;
  constructor(readonly missing: readonly MissingVariable[]) {
    const [first] = missing as [MissingVariable, ...MissingVariable[]];
    super(
      missing.length === 1
        ? `${first.field}: environment variable ${first.variable} is not set. Export it (or remove the field) and run again.`
        : `${missing.length} environment variables are not set: ${missing.map((m) => `${m.variable} (${m.field})`).join(', ')}. Export them (or remove the fields) and run again.`,
    );
    this.name = 'MissingEnvironmentVariableError';
    this.variable = first.variable;
    this.field = first.field;
  }
}

/**
 * Every `${NAME}` value is a secret, masked wherever it appears in any output; one shorter than
 * this would mask ordinary words and numbers (`object-storage`, a port), so it is refused.
 */
export const MIN_SECRET_LENGTH = 8;

/** A `${NAME}` value too short to mask safely, where it was used and how long it is; never the value. */
export interface ShortValue extends MissingVariable {
  readonly length: number;
}

/** Thrown for `${NAME}` values too short to mask safely, naming each; never carries a value. */
export class ShortSecretError extends Error {
  constructor(readonly references: readonly ShortValue[]) {
    super(
      `${references.map((r) => `${r.field}: the value of ${r.variable} has ${r.length} character${r.length === 1 ? '' : 's'}`).join('; ')}. Every $\{NAME} value is a secret, masked in every output, and one shorter than ${MIN_SECRET_LENGTH} characters would mask ordinary words and numbers: a real token is longer; write a value that is not secret (a workspace ID, a host) in the profile itself.`,
    );
    this.name = 'ShortSecretError';
  }
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

interface Expansion {
  readonly expanded: string[];
  readonly missing: MissingVariable[];
  readonly short: ShortValue[];
}

/**
 * Replaces `${NAME}` in every string of a parsed profile with the variable's value, and hands
 * each value it put in to `expanded` (every one is a secret, whatever it holds). Field paths are
 * reported in the same notation as validation errors. The value must be a tree (no cycles).
 * Every unset variable is named at once (MissingEnvironmentVariableError), and so is every value
 * too short to mask safely (ShortSecretError).
 */
export function expandEnvironmentReferences(
  value: unknown,
  env: NodeJS.ProcessEnv,
  path = '',
  expanded: string[] = [],
): unknown {
  const found: Expansion = { expanded, missing: [], short: [] };
  const result = expandTree(value, env, path, found);
  if (found.missing.length > 0) throw new MissingEnvironmentVariableError(found.missing);
  if (found.short.length > 0) throw new ShortSecretError(found.short);
  return result;
}

function expandTree(value: unknown, env: NodeJS.ProcessEnv, path: string, found: Expansion): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (whole, name: string) => {
      const resolved = env[name];
      const field = path || '(root)';
      if (resolved === undefined || resolved === '') {
        found.missing.push({ variable: name, field });
        return whole;
      }
      found.expanded.push(resolved);
      if (resolved.length < MIN_SECRET_LENGTH)
        found.short.push({ variable: name, field, length: resolved.length });
      return resolved;
    });
  }
  if (Array.isArray(value))
    return value.map((item, index) => expandTree(item, env, `${path}[${index}]`, found));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandTree(item, env, childField(path, key), found)]),
    );
  }
  return value;
}
