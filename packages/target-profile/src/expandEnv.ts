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

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${NAME}` in every string of a parsed profile with the variable's value, and hands
 * each value it put in to `expanded` (every one is a secret, whatever it holds). Field paths are
 * reported in the same notation as validation errors. The value must be a tree (no cycles).
 */
export function expandEnvironmentReferences(
  value: unknown,
  env: NodeJS.ProcessEnv,
  path = '',
  expanded: string[] = [],
): unknown {
  const missing: MissingVariable[] = [];
  const result = expandTree(value, env, path, expanded, missing);
  if (missing.length > 0) throw new MissingEnvironmentVariableError(missing);
  return result;
}

function expandTree(
  value: unknown,
  env: NodeJS.ProcessEnv,
  path: string,
  expanded: string[],
  missing: MissingVariable[],
): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (whole, name: string) => {
      const resolved = env[name];
      if (resolved === undefined || resolved === '') {
        missing.push({ variable: name, field: path || '(root)' });
        return whole;
      }
      expanded.push(resolved);
      return resolved;
    });
  }
  if (Array.isArray(value))
    return value.map((item, index) => expandTree(item, env, `${path}[${index}]`, expanded, missing));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        expandTree(item, env, childField(path, key), expanded, missing),
      ]),
    );
  }
  return value;
}
