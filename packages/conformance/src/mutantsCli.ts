#!/usr/bin/env node
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_MUTANT_CONCURRENCY, renderMutationMatrix, runMutants } from './mutants/mutationRun.js';

const positive =
  (name: string) =>
  (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new InvalidArgumentError(`${name} must be a positive integer.`);
    return Number(value);
  };

const program = new Command()
  .name('conformance:mutants')
  .description(
    'Runs the conformance suite against every sandbox fault (each must be caught) and variant (each must pass).',
  )
  .option('--depth <n>', 'runs per property for each variant', positive('--depth'), 5)
  .option(
    '--fault-depth <n>',
    'runs per property for each fault (caught by its first failing case)',
    positive('--fault-depth'),
    3,
  )
  .option('--seed <n>', 'fast-check seed shared by every mutant run', positive('--seed'), 424242)
  .option(
    '--concurrency <n>',
    'mutants run at the same time (in one worker thread per core)',
    positive('--concurrency'),
    DEFAULT_MUTANT_CONCURRENCY,
  )
  .option('--only <ids>', 'comma-separated fault/variant ids')
  .option(
    '--json <file>',
    "also write the summary as JSON: every mutant, the kills per rule, and each rule's threats with the faults that killed them",
  )
  .option(
    '--min-mechanisms <n>',
    'distinct fault mechanisms each MUST rule about the target must be killed by',
    positive('--min-mechanisms'),
    2,
  )
  .option(
    '--no-enforce-mechanisms',
    'print MUST rules killed by too few mechanisms as a warning instead of failing the run',
  )
  .addOption(
    // Lets a test run the mutation runner with a stand-in suite whose verdicts it controls.
    new Option('--suite-cli <path>', 'the conformance CLI to run per mutant').hideHelp(),
  )
  .exitOverride()
  .configureOutput({ outputError: () => undefined });

try {
  program.parse();
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  if (error.exitCode !== 0)
    process.stderr.write(
      `conformance:mutants: ${error.message.replace(/^error: /, '').replace(/([^.])$/, '$1.')} Run with --help for the options.\n`,
    );
  process.exit(error.exitCode === 0 ? 0 : 2);
}
const opts = program.opts<{
  depth: number;
  faultDepth: number;
  seed: number;
  concurrency: number;
  only?: string;
  json?: string;
  suiteCli?: string;
  minMechanisms: number;
  enforceMechanisms: boolean;
}>();
try {
  const started = Date.now();
  const summary = await runMutants({
    depth: opts.depth,
    faultDepth: opts.faultDepth,
    seed: opts.seed,
    concurrency: opts.concurrency,
    minMechanisms: opts.minMechanisms,
    enforceMechanisms: opts.enforceMechanisms,
    print: (line) => process.stderr.write(`${line}\n`),
    ...(opts.only ? { only: opts.only.split(',').map((s) => s.trim()) } : {}),
    ...(opts.suiteCli ? { cliPath: opts.suiteCli } : {}),
  });
  if (opts.json) {
    const file = resolve(opts.json);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ kind: 'mutation-report', ...summary }, null, 2)}\n`);
  }
  process.stdout.write(
    `${renderMutationMatrix(summary)}\nTotal time: ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  process.exitCode = summary.exitCode;
} catch (error) {
  process.stderr.write(`conformance:mutants: ${(error as Error).message}\n`);
  process.exitCode = 2;
}
