#!/usr/bin/env node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createSandbox } from './createSandbox.js';
import { defaultSandboxProfile } from './defaultSandboxProfile.js';
import { type FaultId, faultCatalogue, isFaultId } from './faultCatalogue.js';
import { readProfileFile, writeProfileFile } from './profileFile.js';
import { type SandboxEnvironment, SandboxProfileError } from './sandboxProfile.js';
import { isVariantId, type VariantId, variantCatalogue } from './variantCatalogue.js';

interface CliOptions {
  port: number;
  host: string;
  profile?: string;
  profileOut?: string;
  fault?: FaultId;
  variant?: VariantId;
  environment: SandboxEnvironment;
  listFaults?: boolean;
  listVariants?: boolean;
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free port).');
  }
  return Number(value);
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

const program = new Command()
  .name('cloud-api-sandbox')
  .description('Starts the stateful in-memory sandbox of the Cloud Infrastructure Public API.')
  .option('--port <port>', 'port to listen on (0: a free port)', parsePort, 0)
  .option('--host <host>', 'interface to listen on', '127.0.0.1')
  .option('--profile <file>', 'seed from this target profile (YAML or JSON) instead of generating tokens')
  .option('--profile-out <file>', 'write the profile, tokens included, to this file (mode 0600)')
  .addOption(
    new Option('--environment <environment>', 'environment of a generated profile')
      .choices(['development', 'production'])
      .default('development'),
  )
  .option('--fault <id>', 'start with one named fault (mutation testing)', parseFault)
  .option('--variant <id>', 'start with one named variant (another legitimate choice)', parseVariant)
  .option('--list-faults', 'print the fault catalogue and exit')
  .option('--list-variants', 'print the variant catalogue and exit')
  .showHelpAfterError();

async function main(): Promise<void> {
  program.parse();
  const options = program.opts<CliOptions>();
  if (options.listFaults || options.listVariants) {
    if (options.listFaults)
      for (const fault of faultCatalogue) console.log(`${fault.id}\t${fault.rule}\t${fault.description}`);
    if (options.listVariants) {
      for (const variant of variantCatalogue)
        console.log(`${variant.id}\t${variant.gap}\t${variant.description}`);
    }
    return;
  }

  const profile = options.profile
    ? readProfileFile(resolve(options.profile))
    : defaultSandboxProfile({ environment: options.environment });
  const sandbox = createSandbox({ profile, fault: options.fault, variant: options.variant });
  const listening = await sandbox.listen(options.port, options.host);

  let temporaryDirectory: string | undefined;
  let profilePath: string;
  if (options.profileOut) {
    profilePath = resolve(options.profileOut);
  } else {
    temporaryDirectory = mkdtempSync(join(tmpdir(), 'cloud-api-sandbox-'));
    profilePath = join(temporaryDirectory, 'profile.json');
  }
  writeProfileFile(profilePath, listening.profile);

  console.log(`Cloud API sandbox (${sandbox.environment}) listening at ${listening.url}`);
  console.log(`Profile with this sandbox's tokens: ${profilePath} (mode 0600; tokens are never printed)`);
  console.log(
    `Fault: ${options.fault ?? 'none'}. Variant: ${options.variant ?? 'none'}. Press Ctrl-C to stop.`,
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await listening.close();
    if (temporaryDirectory) rmSync(temporaryDirectory, { recursive: true, force: true });
    console.log('Sandbox stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  if (error instanceof SandboxProfileError) {
    console.error(`sandbox: ${error.message}`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    console.error(`sandbox: cannot listen (${code}): choose another --port or --host.`);
    process.exit(2);
  }
  console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
