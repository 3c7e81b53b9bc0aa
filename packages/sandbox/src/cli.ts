#!/usr/bin/env node
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { ListeningSandbox, Sandbox } from './createSandbox.js';
import { type FaultId, faultCatalogue, isFaultId } from './faultCatalogue.js';
import { listenFailure } from './listenFailure.js';
import { type SandboxEnvironment, type SandboxProfile, SandboxProfileError } from './sandboxProfile.js';
import { isVariantId, type VariantId, variantCatalogue } from './variantCatalogue.js';

interface CliOptions {
  port: number;
  host: string;
  profile?: string;
  profileOut?: string;
  overwrite?: boolean;
  fault?: FaultId;
  variant?: VariantId;
  environment: SandboxEnvironment;
  listFaults?: boolean;
  listVariants?: boolean;
}

/** Exit status of a bad command line or input file; 1 is left for failures while serving. */
const EXIT_USAGE = 2;

const exampleProfilePath = fileURLToPath(new URL('../profiles/sandbox.example.yaml', import.meta.url));

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free port).');
  }
  return Number(value);
}

function parseHost(value: string): string {
  // Four dotted numbers read as an IPv4 address, never as a name to look up.
  if (/^[\d.]+$/.test(value) && isIP(value) !== 4) {
    throw new InvalidArgumentError(
      'not an IPv4 address (each of the four numbers is 0 to 255), e.g. 127.0.0.1.',
    );
  }
  if (value.trim() === '')
    throw new InvalidArgumentError('expected an address or host name, e.g. 127.0.0.1.');
  return value;
}

function parseFault(value: string): FaultId {
  if (!isFaultId(value))
    throw new InvalidArgumentError(`unknown fault "${value}"; list the faults with --list-faults.`);
  return value;
}

function parseVariant(value: string): VariantId {
  if (!isVariantId(value)) {
    throw new InvalidArgumentError(`unknown variant "${value}"; list the variants with --list-variants.`);
  }
  return value;
}

/** This package's version, from its package.json. */
function sandboxVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'unknown';
  }
}

const program = new Command()
  .name('cloud-api-sandbox')
  .description('Starts the stateful in-memory sandbox of the Cloud Infrastructure Public API.')
  .version(sandboxVersion(), '--version', 'print the version of the sandbox and exit')
  .option('--port <port>', 'port to listen on (0: a free port)', parsePort, 0)
  .option('--host <host>', 'interface to listen on', parseHost, '127.0.0.1')
  .option('--profile <file>', 'seed from this target profile (YAML or JSON) instead of generating tokens')
  .option('--profile-out <file>', 'write the profile, tokens included, to this new file (mode 0600)')
  .option('--overwrite', 'let --profile-out replace an existing file')
  .addOption(
    new Option('--environment <environment>', 'environment of a generated profile (not with --profile)')
      .choices(['development', 'production'])
      .default('development'),
  )
  .option('--fault <id>', 'start with one named fault (mutation testing)', parseFault)
  .option(
    '--variant <id>',
    'start with one named variant (another legitimate choice); combines with --fault',
    parseVariant,
  )
  .option('--list-faults', 'print the fault catalogue and exit')
  .option('--list-variants', 'print the variant catalogue and exit')
  .showHelpAfterError('(run with --help for every option)')
  .exitOverride();

class UsageError extends Error {}

async function loadProfile(options: CliOptions): Promise<SandboxProfile> {
  if (!options.profile) {
    const { defaultSandboxProfile } = await import('./defaultSandboxProfile.js');
    return defaultSandboxProfile({ environment: options.environment });
  }
  const { readProfileFile } = await import('./profileFile.js');
  const profile = readProfileFile(resolve(options.profile));
  if (program.getOptionValueSource('environment') === 'cli' && options.environment !== profile.environment) {
    throw new UsageError(
      `--environment ${options.environment} contradicts the profile, whose environment is ${String(profile.environment)}: --environment only applies to a generated profile. Drop one of the two.`,
    );
  }
  return profile;
}

async function main(): Promise<void> {
  try {
    program.parse();
  } catch (error) {
    // commander has already printed its message (or the help).
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : EXIT_USAGE);
    throw error;
  }
  const options = program.opts<CliOptions>();
  if (options.listFaults || options.listVariants) {
    if (options.listFaults)
      for (const fault of faultCatalogue)
        console.log(`${fault.id}\t${fault.rule}\t${fault.mechanism}\t${fault.description}`);
    if (options.listVariants) {
      for (const variant of variantCatalogue)
        console.log(`${variant.id}\t${variant.gap}\t${variant.description}`);
    }
    return;
  }
  if (options.overwrite && !options.profileOut)
    throw new UsageError('--overwrite only applies to --profile-out.');

  const profile = await loadProfile(options);
  // Loaded only now, with the profile validator: --help, --list-* and a bad option never need it.
  const { checkProfileOutput, writeProfileFile } = await import('./profileFile.js');
  const profileOut = options.profileOut ? resolve(options.profileOut) : undefined;
  const replacing =
    profileOut !== undefined &&
    checkProfileOutput(profileOut, {
      overwrite: options.overwrite,
      inputPath: options.profile ? resolve(options.profile) : undefined,
    });
  // Loaded only now: a bad command line is answered without compiling the spec's validators.
  const { createSandbox } = await import('./createSandbox.js');
  let sandbox: Sandbox;
  try {
    sandbox = createSandbox({ profile, fault: options.fault, variant: options.variant });
  } catch (error) {
    if (error instanceof SandboxProfileError && options.profile) {
      throw new SandboxProfileError(
        `The profile ${resolve(options.profile)} is not usable: ${error.message}.`,
      );
    }
    throw error;
  }

  let listening: ListeningSandbox;
  try {
    listening = await sandbox.listen(options.port, options.host);
  } catch (error) {
    throw new UsageError(listenFailure(error, options.host, options.port));
  }

  let temporaryDirectory: string | undefined;
  let profilePath: string;
  if (profileOut) {
    profilePath = profileOut;
  } else {
    temporaryDirectory = mkdtempSync(join(tmpdir(), 'cloud-api-sandbox-'));
    profilePath = join(temporaryDirectory, 'profile.json');
  }
  try {
    writeProfileFile(profilePath, listening.profile);
  } catch (error) {
    await listening.close();
    if (temporaryDirectory) rmSync(temporaryDirectory, { recursive: true, force: true });
    throw error;
  }

  let stopping = false;
  const stop = async (why?: string) => {
    if (stopping) return;
    stopping = true;
    await listening.close();
    // The generated tokens die with the sandbox; a --profile-out file is the user's to keep.
    if (temporaryDirectory) rmSync(temporaryDirectory, { recursive: true, force: true });
    console.log(`Sandbox stopped${why ? `: ${why}` : ''}.`);
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop());
  // Killing `npx cloud-api-sandbox` must not leave a sandbox listening with nobody to stop it.
  const { watchLauncher } = await import('./launcherWatch.js');
  watchLauncher((launcher) => void stop(`${launcher.name} (pid ${launcher.pid}), which started it, is gone`));

  const replaced = replacing ? ', replaced the existing file' : '';
  console.log(`Cloud API sandbox (${sandbox.environment}) listening at ${listening.url}`);
  console.log(
    `Profile with this sandbox's tokens: ${profilePath} (mode 0600${replaced}; tokens are never printed)`,
  );
  console.log(
    `Fault: ${options.fault ?? 'none'}. Variant: ${options.variant ?? 'none'}. Press Ctrl-C to stop.`,
  );
}

// A closed stdout (e.g. `| head -1`) is not a sandbox failure: drop the output, keep serving.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

main().catch((error: unknown) => {
  if (error instanceof SandboxProfileError) {
    console.error(`sandbox: ${error.message}`);
    if (/is not usable/.test(error.message))
      console.error(`sandbox: a complete example: ${exampleProfilePath}`);
    process.exit(EXIT_USAGE);
  }
  if (error instanceof UsageError) {
    console.error(`sandbox: ${error.message}`);
    process.exit(EXIT_USAGE);
  }
  // Not a bad input but a sandbox bug: one line, no stack (the stack could quote a profile).
  console.error(
    `sandbox: unexpected failure: ${error instanceof Error ? error.message : String(error)}. Please report it.`,
  );
  process.exit(1);
});
