import { chmodSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import {
  describeFileError,
  loadProfileFile,
  MissingEnvironmentVariableError,
  ProfileFileError,
  ProfileValidationError,
  ShortSecretError,
} from '@cloud-api/target-profile';
import { stringify } from 'yaml';
import { type SandboxProfile, SandboxProfileError } from './sandboxProfile.js';

export { describeFileError };

/**
 * Reads a target profile (YAML or JSON) with @cloud-api/target-profile, the conformance CLI's own
 * loader: `${NAME}` expanded from the environment, then the same schema and checks, so every
 * profile the suite accepts seeds a sandbox. Errors become one SandboxProfileError naming the
 * file and the fields, never a token (nor any value a `${NAME}` put in).
 */
export function readProfileFile(path: string, env: NodeJS.ProcessEnv = process.env): SandboxProfile {
  try {
    return loadProfileFile(path, { env });
  } catch (error) {
    if (error instanceof ProfileFileError && error.code !== undefined) {
      throw new SandboxProfileError(
        `Cannot read the profile ${path} (${describeFileError(error.code)}). Check the path; without --profile the sandbox generates a profile itself.`,
      );
    }
    if (error instanceof ProfileValidationError)
      throw new SandboxProfileError(`The profile ${path} is not usable: ${error.problems.join('; ')}.`);
    if (error instanceof MissingEnvironmentVariableError || error instanceof ShortSecretError)
      throw new SandboxProfileError(`The profile ${path} cannot be read: ${error.message}`);
    if (error instanceof ProfileFileError) throw new SandboxProfileError(error.message);
    throw error;
  }
}

export interface ProfileOutputOptions {
  /** Replace an existing file (default: refuse, so nothing is lost by accident). */
  readonly overwrite?: boolean | undefined;
  /** The profile the sandbox was seeded from: never the output, whatever `overwrite` says. */
  readonly inputPath?: string | undefined;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * Checks, before anything starts, that `path` can take the profile: its directory exists and the
 * file is new (or `overwrite` is set). Returns whether an existing file will be replaced.
 */
export function checkProfileOutput(path: string, options: ProfileOutputOptions = {}): boolean {
  const directory = dirname(path);
  let directoryStats: ReturnType<typeof statSync>;
  try {
    directoryStats = statSync(directory);
  } catch (error) {
    throw new SandboxProfileError(
      `Cannot write the profile to ${path}: its directory ${directory} cannot be used (${describeFileError((error as NodeJS.ErrnoException).code)}). Create it first or choose another path.`,
    );
  }
  if (!directoryStats.isDirectory()) {
    throw new SandboxProfileError(
      `Cannot write the profile to ${path}: ${directory} is not a directory. Choose another path.`,
    );
  }
  let existing: ReturnType<typeof statSync> | undefined;
  try {
    existing = statSync(path);
  } catch {
    existing = undefined;
  }
  if (existing === undefined) return false;
  if (existing.isDirectory()) {
    throw new SandboxProfileError(
      `Cannot write the profile to ${path}: it is a directory. Name a file, e.g. ${join(path, 'sandbox-profile.json')}.`,
    );
  }
  if (options.inputPath !== undefined && sameFile(path, options.inputPath)) {
    throw new SandboxProfileError(
      `--profile-out ${path} is the profile the sandbox reads (--profile): writing it would replace that file. Choose another path.`,
    );
  }
  if (!options.overwrite) {
    throw new SandboxProfileError(
      `--profile-out ${path} already exists. Add --overwrite to replace it, or choose another path.`,
    );
  }
  return true;
}

/**
 * Writes a profile that holds live tokens: owner-only (0600), YAML for .yaml/.yml, else JSON.
 * The file appears whole or not at all (written beside it, then renamed), so a reader polling
 * for it never sees half a profile and a failed write leaves an existing file as it was.
 */
export function writeProfileFile(path: string, profile: SandboxProfile): void {
  const extension = extname(path).toLowerCase();
  const text =
    extension === '.yaml' || extension === '.yml'
      ? `# Written by the sandbox; it holds live sandbox tokens. Do not commit it.\n${stringify(profile)}`
      : `${JSON.stringify(profile, null, 2)}\n`;
  const partial = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  try {
    writeFileSync(partial, text, { mode: 0o600, flag: 'wx' });
    chmodSync(partial, 0o600);
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new SandboxProfileError(
      `Cannot write the profile to ${path} (${describeFileError((error as NodeJS.ErrnoException).code)}). Choose another --profile-out.`,
    );
  }
}
