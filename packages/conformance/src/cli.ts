#!/usr/bin/env node
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
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

const MAX_SEED = 2 ** 31 - 1;
/** Shell convention: 128 + the signal number. */
const EXIT_CODE_OF_SIGNAL = { SIGINT: 130, SIGTERM: 143 } as const;

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
    // The seeds a run prints and stores in replay files are always in this range.
    if (!/^\d+$/.test(v) || Number(v) > MAX_SEED)
      throw new InvalidArgumentError(`--seed must be an integer from 0 to ${MAX_SEED}.`);
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
  // Errors are printed by main() as one line; commander's own exit is replaced by exit code 2.
  .exitOverride()
  .configureOutput({ outputError: () => undefined });

/** One line for a bad command line: what was wrong (commander's words) and where to look. */
function commandLineProblem(error: CommanderError): string {
  const what = error.message
    .replace(/^error: /, '')
    .replace(/\s+/g, ' ')
    .trim();
  return `${/[.!?]$/.test(what) ? what : `${what}.`} Run "conformance --help" for the options.`;
}

async function main(): Promise<number> {
  try {
    program.parse();
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // --help and --version are not errors.
    if (error.exitCode === 0) return 0;
    process.stderr.write(`conformance: ${commandLineProblem(error)}\n`);
    return 2;
  }
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
  let interruptedBy: 'SIGINT' | 'SIGTERM' | undefined;
  const interrupt = (signal: 'SIGINT' | 'SIGTERM'): void => {
    if (interruptedBy) process.exit(EXIT_CODE_OF_SIGNAL[signal]);
    interruptedBy = signal;
    process.stderr.write(
      `\nInterrupted (${signal}): stopping the run, writing the reports and stopping the target (${signal === 'SIGINT' ? 'Ctrl-C' : 'signal'} again to force)…\n`,
    );
    controller.abort();
  };
  process.on('SIGINT', () => interrupt('SIGINT'));
  process.on('SIGTERM', () => interrupt('SIGTERM'));
  try {
    const result = await runConformance({
      target: opts.target,
      depth: opts.depth,
      reporters: opts.reporter ?? ['table'],
      allowProduction: opts.allowProduction,
      deadlineMs: opts.deadline * 1000,
      signal: controller.signal,
      progress: (line) => process.stderr.write(`  ${line}\n`),
      ...(opts.rules ? { rules: opts.rules } : {}),
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      ...(opts.out ? { outDir: opts.out } : {}),
      ...(opts.replay ? { replayFile: opts.replay } : {}),
      ...(opts.shard ? { shard: opts.shard } : {}),
      ...(opts.sandboxFault ? { sandboxFault: opts.sandboxFault } : {}),
      ...(opts.sandboxVariant ? { sandboxVariant: opts.sandboxVariant } : {}),
    });
    return interruptedBy ? EXIT_CODE_OF_SIGNAL[interruptedBy] : result.exitCode;
  } catch (error) {
    if (interruptedBy) {
      process.stderr.write(`conformance: interrupted before the run started: ${(error as Error).message}\n`);
      return EXIT_CODE_OF_SIGNAL[interruptedBy];
    }
    const known = [
      RunSetupError,
      ProfileFileError,
      ProfileValidationError,
      MissingEnvironmentVariableError,
    ].some((kind) => error instanceof kind);
    const message = (error as Error).message.replace(/\s*\n\s*/g, ' ');
    process.stderr.write(`conformance: ${known ? message : `unexpected error: ${message}`}\n`);
    return 2;
  }
}

process.exitCode = await main();
