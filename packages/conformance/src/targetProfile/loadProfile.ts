import { fileURLToPath } from 'node:url';
import {
  loadProfileFile as loadTargetProfileFile,
  ProfileFileError,
  parseProfileText as parseTargetProfileText,
  type TargetProfile,
} from '@cloud-api/target-profile';
import { createSecretRedactor, type SecretRedactor } from '../secrets/secretRedactor.js';
import { profileSecrets } from './redaction.js';

export { ProfileFileError };

/**
 * Parses profile text, YAML or JSON, with @cloud-api/target-profile. Every secret it meets (token
 * fields, `${VAR}` values, and what the suite derives from the tokens) goes to `redactor`, and no
 * error it throws contains one.
 */
export function parseProfileText(
  text: string,
  source: string,
  env: NodeJS.ProcessEnv = process.env,
  redactor: SecretRedactor = createSecretRedactor(),
): TargetProfile {
  const profile = parseTargetProfileText(text, source, { env, redactor });
  redactor.add(...profileSecrets(profile));
  return profile;
}

/** The package's own example, by a path that exists wherever the command is run from. */
const EXAMPLE_PROFILE = fileURLToPath(new URL('../../profiles/staging.example.yaml', import.meta.url));

/** This command's advice for a `--target` file it cannot read. */
function readFailure(path: string, error: ProfileFileError): ProfileFileError {
  switch (error.code) {
    case 'ENOENT':
      return new ProfileFileError(
        `Profile file ${path} does not exist. Pass --target prism, --target sandbox, or a path to a profile (see ${EXAMPLE_PROFILE}).`,
        error.code,
      );
    case 'EISDIR':
      return new ProfileFileError(
        `Profile ${path} is a directory. Pass the path of a profile file (YAML or JSON).`,
        error.code,
      );
    default:
      return error;
  }
}

export function loadProfileFile(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  redactor: SecretRedactor = createSecretRedactor(),
): TargetProfile {
  let profile: TargetProfile;
  try {
    profile = loadTargetProfileFile(path, { env, redactor });
  } catch (error) {
    if (error instanceof ProfileFileError && error.code !== undefined) throw readFailure(path, error);
    throw error;
  }
  redactor.add(...profileSecrets(profile));
  return profile;
}
