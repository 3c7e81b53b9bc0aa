import { childField } from './fieldNames.js';

/** Thrown when a `${NAME}` reference names an unset variable. Never carries a value. */
export class MissingEnvironmentVariableError extends Error {
  constructor(
    readonly variable: string,
    readonly field: string,
  ) {
    super(
      `${field}: environment variable ${variable} is not set. Export it (or remove the field) and run again.`,
    );
    this.name = 'MissingEnvironmentVariableError';
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
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_whole, name: string) => {
      const resolved = env[name];
      if (resolved === undefined || resolved === '')
        throw new MissingEnvironmentVariableError(name, path || '(root)');
      expanded.push(resolved);
      return resolved;
    });
  }
  if (Array.isArray(value))
    return value.map((item, index) => expandEnvironmentReferences(item, env, `${path}[${index}]`, expanded));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        expandEnvironmentReferences(item, env, childField(path, key), expanded),
      ]),
    );
  }
  return value;
}
