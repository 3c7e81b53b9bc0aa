import { chmodSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { checkProfileShape } from './profileShape.js';
import { type SandboxProfile, SandboxProfileError } from './sandboxProfile.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

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

/** Reads a target profile (YAML or JSON), expanding `${NAME}` from the environment. */
export function readProfileFile(path: string, env: NodeJS.ProcessEnv = process.env): SandboxProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SandboxProfileError(
      `Cannot read the profile ${path} (${describeFileError(code)}). Check the path; without --profile the sandbox generates a profile itself.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    // Only the first line: the rest of the parser's message quotes the file, which may hold tokens.
    const reason = ((error as Error).message.split('\n')[0] ?? '').replace(/:$/, '');
    throw new SandboxProfileError(`The profile ${path} is not valid YAML or JSON: ${reason}.`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SandboxProfileError(
      `The profile ${path} must hold a mapping (name, baseUrl, environment, identities, workspaces, billing, ...).`,
    );
  }
  try {
    checkProfileShape(parsed);
    return expand(parsed, env, '') as SandboxProfile;
  } catch (error) {
    if (error instanceof SandboxProfileError) {
      throw new SandboxProfileError(`The profile ${path} is not usable: ${error.message}.`);
    }
    throw error;
  }
}

function expand(value: unknown, env: NodeJS.ProcessEnv, field: string): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_whole, name: string) => {
      const resolved = env[name];
      if (resolved === undefined || resolved === '') {
        throw new SandboxProfileError(`${field || '(root)'}: environment variable ${name} is not set`);
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
