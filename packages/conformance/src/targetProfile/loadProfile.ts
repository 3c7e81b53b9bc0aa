import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { expandEnvironmentReferences } from './expandEnv.js';
import type { TargetProfile } from './types.js';
import { validateProfile } from './validateProfile.js';

export class ProfileFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileFileError';
  }
}

/** Parses profile text (YAML is a superset of JSON, so both go through the YAML parser). */
export function parseProfileText(
  text: string,
  source: string,
  env: NodeJS.ProcessEnv = process.env,
): TargetProfile {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ProfileFileError(
      `${source} is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]?.replace(/:$/, '')}. Fix the syntax there and run again.`,
    );
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ProfileFileError(
      `${source} must contain a mapping (name, baseUrl, environment, identities, ...), see schema/target-profile.schema.json`,
    );
  }
  return validateProfile(expandEnvironmentReferences(raw, env), source);
}

export function loadProfileFile(path: string, env: NodeJS.ProcessEnv = process.env): TargetProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProfileFileError(
      code === 'ENOENT'
        ? `Profile file ${path} does not exist. Pass --target prism, --target sandbox, or a path to a profile (see profiles/staging.example.yaml).`
        : `Cannot read profile ${path}: ${code ?? (error as Error).message}`,
    );
  }
  return parseProfileText(text, path, env);
}
