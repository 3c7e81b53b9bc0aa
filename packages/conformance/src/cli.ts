#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import { RunSetupError, runConformance } from './engine/runConformance.js';
import {
  MissingEnvironmentVariableError,
  ProfileFileError,
  ProfileValidationError,
} from './targetProfile/index.js';

function positiveInteger(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new InvalidArgumentError(`${name} must be a positive integer.`);
    return Number(value);
  };
}

function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

const program = new Command()
  .name('conformance')
  .description(
    'Checks, rule by rule, whether an environment obeys the Cloud Infrastructure Public API document.',
  )
  .addOption(
    new Option(
      '--target <target>',
      'sandbox (in-process, default), prism (starts the mock), or a profile file (YAML/JSON)',
    ).default('sandbox'),
  )
  .option('--rules <list>', 'rules to check, e.g. "WS-*,AUTH-1" (default: all)')
  .option('--depth <n>', 'runs per property (fast-check numRuns)', positiveInteger('--depth'), 25)
  .option('--seed <n>', 'fast-check seed, to reproduce a run', (v) => {
    if (!/^-?\d+$/.test(v)) throw new InvalidArgumentError('--seed must be an integer.');
    return Number(v);
  })
  .option('--reporter <name>', 'table | json | junit (repeatable)', collect)
  .option('--out <dir>', 'directory for reports, replay files and the created-resources log')
  .option('--replay <file>', 're-run exactly the case recorded in a replay file (combine with --target)')
  .option('--allow-production', 'allow a production profile that also sets allowProduction: true', false)
  .option('--shard <i/n>', 'run only shard i of n (vitest sharding, for CI machines)')
  .option('--deadline <seconds>', 'stop the run after this many seconds', positiveInteger('--deadline'), 600)
  .addOption(
    new Option(
      '--sandbox-fault <id>',
      'start the embedded sandbox with a named fault (mutation testing)',
    ).hideHelp(),
  )
  .addOption(
    new Option('--sandbox-variant <id>', 'start the embedded sandbox with a correct variant').hideHelp(),
  )
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

async function main(): Promise<number> {
  program.parse();
  const opts = program.opts<{
    target: string;
    rules?: string;
    depth: number;
    seed?: number;
    reporter?: string[];
    out?: string;
    replay?: string;
    allowProduction: boolean;
    shard?: string;
    deadline: number;
    sandboxFault?: string;
    sandboxVariant?: string;
  }>();
  const controller = new AbortController();
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    process.stderr.write('\nInterrupted: stopping the run and the target (Ctrl-C again to force)…\n');
    controller.abort();
  });
  process.on('SIGTERM', () => controller.abort());
  try {
    const result = await runConformance({
      target: opts.target,
      depth: opts.depth,
      reporters: opts.reporter ?? ['table'],
      allowProduction: opts.allowProduction,
      deadlineMs: opts.deadline * 1000,
      signal: controller.signal,
      ...(opts.rules ? { rules: opts.rules } : {}),
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      ...(opts.out ? { outDir: opts.out } : {}),
      ...(opts.replay ? { replayFile: opts.replay } : {}),
      ...(opts.shard ? { shard: opts.shard } : {}),
      ...(opts.sandboxFault ? { sandboxFault: opts.sandboxFault } : {}),
      ...(opts.sandboxVariant ? { sandboxVariant: opts.sandboxVariant } : {}),
    });
    return controller.signal.aborted ? 130 : result.exitCode;
  } catch (error) {
    const known = [
      RunSetupError,
      ProfileFileError,
      ProfileValidationError,
      MissingEnvironmentVariableError,
    ].some((kind) => error instanceof kind);
    process.stderr.write(
      `conformance: ${known ? (error as Error).message : `unexpected error: ${(error as Error).message}`}\n`,
    );
    return 2;
  }
}

process.exitCode = await main();
