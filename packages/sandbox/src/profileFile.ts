import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse, stringify } from 'yaml';
import { type SandboxProfile, SandboxProfileError } from './sandboxProfile.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Reads a target profile (YAML or JSON), expanding `${NAME}` from the environment. */
export function readProfileFile(path: string, env: NodeJS.ProcessEnv = process.env): SandboxProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new SandboxProfileError(`Cannot read the profile ${path} (${code}).`);
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    throw new SandboxProfileError(
      `The profile ${path} is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SandboxProfileError(
      `The profile ${path} must hold an object (name, baseUrl, environment, identities, ...).`,
    );
  }
  return expand(parsed, env, '') as SandboxProfile;
}

function expand(value: unknown, env: NodeJS.ProcessEnv, field: string): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_whole, name: string) => {
      const resolved = env[name];
      if (resolved === undefined || resolved === '') {
        throw new SandboxProfileError(`${field || '(root)'}: environment variable ${name} is not set.`);
      }
      return resolved;
    });
  }
  if (Array.isArray(value)) return value.map((item, index) => expand(item, env, `${field}[${index}]`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expand(item, env, field ? `${field}.${key}` : key)]),
    );
  }
  return value;
}

/** Writes a profile that holds live tokens: owner-only (0600), YAML for .yaml/.yml, else JSON. */
export function writeProfileFile(path: string, profile: SandboxProfile): void {
  const extension = extname(path).toLowerCase();
  const text =
    extension === '.yaml' || extension === '.yml'
      ? `# Written by the sandbox; it holds live sandbox tokens. Do not commit it.\n${stringify(profile)}`
      : `${JSON.stringify(profile, null, 2)}\n`;
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}
