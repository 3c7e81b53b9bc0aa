import { watchLauncher } from '@cloud-api/sandbox/launcher-watch';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { reporterRegistry } from './reporters/index.js';
import { ReportWriteError } from './reporters/reportWriteError.js';
import { handOverInterrupts } from './run/earlyInterrupt.js';
import { runConformance } from './run/engine.js';
import { EXIT_CODE_OF_SIGNAL, forcesExit, type StopSignal } from './run/interruptPolicy.js';
import { cliInvocation } from './run/invocation.js';
import {
  DEFAULT_DEADLINE_SECONDS,
  DEFAULT_DEPTH,
  type IntegerLimits,
  integerOption,
  OPTION_LIMITS,
} from './run/options.js';
import { killDescendants } from './run/processTree.js';
import { RunSetupError } from './run/runSetupError.js';
import { sentence } from './run/sentence.js';
import { suiteVersion } from './run/suiteVersion.js';
import { EXIT_CODES } from './run/verdict.js';
import { createSecretRedactor } from './secrets/secretRedactor.js';
import {
  MissingEnvironmentVariableError,
  ProfileFileError,
  ProfileValidationError,
  ShortSecretError,
} from './targetProfile/index.js';
import { terminalSafe } from './terminalSafe.js';

/** A commander parser over the engine's own bounds, so both say the same thing about a value. */
function integer(name: string, limits: IntegerLimits) {
  return (value: string): number => {
    try {
      return integerOption(name, value, limits);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

/**
 * Every byte this process writes goes through the run's redactor, which the engine feeds as it
 * meets secrets: the last line of defence under every report, progress line and error message.
 */
const redactor = createSecretRedactor();
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(
      typeof chunk === 'string'
        ? redactor.redact(chunk)
        : chunk instanceof Uint8Array
          ? redactor.redact(Buffer.from(chunk).toString('utf8'))
          : chunk,
      ...rest,
    )) as typeof stream.write;
}

function collect(value: string, previous: string[] = []): string[] {
  const names = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new InvalidArgumentError(`name one of ${Object.keys(reporterRegistry).join(', ')}`);
  return [...previous, ...names];
}

const program = new Command()
  .name('conformance')
  .description(
    'Checks, rule by rule, whether an environment obeys the Cloud Infrastructure Public API document.',
  )
  .version(suiteVersion(), '--version', 'print the version of the suite and exit')
  .addOption(
    new Option(
      '--target <target>',
      'sandbox (in-process, default), prism (starts the mock), or a profile file (YAML/JSON)',
    ).default('sandbox'),
  )
  .option('--rules <list>', 'rules to check, e.g. "WS-*,AUTH-1" (default: all)')
  .option(
    '--depth <n>',
    'runs per property (fast-check numRuns)',
    integer('--depth', OPTION_LIMITS.depth),
    DEFAULT_DEPTH,
  )
  .option('--seed <n>', 'fast-check seed, to reproduce a run', integer('--seed', OPTION_LIMITS.seed))
  .option(
    '--concurrency <n>',
    'most requests in flight for independent cases (default: profile, else 4; capped by rateLimitPerSecond)',
    integer('--concurrency', OPTION_LIMITS.concurrency),
  )
  .option(
    '--reporter <name>',
    `${Object.keys(reporterRegistry).join(' | ')} (repeatable or comma-separated)`,
    collect,
  )
  .option('--out <dir>', 'directory for reports, replay files and the created-resources log')
  .option(
    '--replay <file>',
    're-run exactly the case recorded in a replay file, against the target it recorded (--target to replay elsewhere)',
  )
  .option('--allow-production', 'allow a production profile that also sets allowProduction: true', false)
  .option('--shard <i/n>', 'run only shard i of n (every check of a rule in one shard, for CI machines)')
  .option(
    '--deadline <seconds>',
    'stop the run after this many seconds (an unfinished run is incomplete, exit 3)',
    integer('--deadline', OPTION_LIMITS.deadline),
    DEFAULT_DEADLINE_SECONDS,
  )
  .option(
    '--strict',
    "gate mode for CI: an inconclusive rule, or a check skipped for a reason not declared in the profile's unsupportedRules, fails the run",
    false,
  )
  .option(
    '--sandbox-fault <id>',
    'start the embedded sandbox with a named fault, to see a rule fail (list: cloud-api-sandbox --list-faults)',
  )
  .option(
    '--sandbox-variant <id>',
    'start the embedded sandbox as a correct variant that makes another legitimate choice (list: cloud-api-sandbox --list-variants)',
  )
  .addHelpText(
    'after',
    `
Profiles:
  A profile names the base URL, the identities with their tokens (\${VAR} reads the environment)
  and the workspaces: see profiles/staging.example.yaml in @cloud-api/conformance. A run is
  read-only unless the profile sets mutations: true: checks that create, delete or change
  resources are skipped without it (and fail --strict unless declared in unsupportedRules).

Exit codes:
  ${EXIT_CODES.passed}    passed: every selected check finished, no MUST rule failed (with --strict: every
       rule also had evidence and every skip is declared in unsupportedRules)
  ${EXIT_CODES.failed}    failed: a MUST rule failed, or --strict refused the run
  ${EXIT_CODES.badInput}    bad input (options, profile, --out, replay file, the profile's provision command),
       or the preflight found the base URL does not serve the API or does not answer: no rule
       was run; or a report that could not be written under --out
  ${EXIT_CODES.incomplete}    incomplete: the run did not finish (deadline, target not answering, interrupted check)
  130  interrupted by Ctrl-C (SIGINT); 143 by SIGTERM; 129 by SIGHUP (a closed terminal).
       Reports still list every check.`,
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
  return `${sentence(what)} Run "${cliInvocation()} --help" for the options.`;
}

async function main(): Promise<number> {
  try {
    program.parse();
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // --help and --version are not errors.
    if (error.exitCode === 0) return 0;
    process.stderr.write(`conformance: ${commandLineProblem(error)}\n`);
    return EXIT_CODES.badInput;
  }
  const opts = program.opts<{
    target: string;
    rules?: string;
    depth: number;
    seed?: number;
    concurrency?: number;
    reporter?: string[];
    out?: string;
    replay?: string;
    allowProduction: boolean;
    shard?: string;
    deadline: number;
    strict: boolean;
    sandboxFault?: string;
    sandboxVariant?: string;
  }>();
  const controller = new AbortController();
  let interruptedBy: StopSignal | undefined;
  let firstSignal: { readonly signal: StopSignal; readonly at: number } | undefined;
  const interrupt = (signal: StopSignal, bySignal = true): void => {
    const now = Date.now();
    if (interruptedBy) {
      if (!bySignal) return;
      // The first signal after a stop for a vanished launcher is that launcher's signal, and a copy
      // of the first from a wrapper is the same interrupt: forcing on either would lose the reports
      // to a single Ctrl-C.
      if (!forcesExit(firstSignal, now)) {
        firstSignal ??= { signal, at: now };
        return;
      }
      // Forced: nothing the run started may outlive this process (a Prism mock).
      killDescendants('SIGKILL');
      process.exit(EXIT_CODE_OF_SIGNAL[signal]);
    }
    interruptedBy = signal;
    if (bySignal) firstSignal = { signal, at: now };
    process.stderr.write(
      `\nInterrupted (${signal}): stopping the run, writing the reports and stopping the target (${signal === 'SIGINT' ? 'Ctrl-C' : 'signal'} again to force)…\n`,
    );
    controller.abort(signal);
  };
  handOverInterrupts((signal) => interrupt(signal));
  // `npx cloud-api-conformance` runs this through `sh -c`: npm killed (SIGTERM, SIGHUP, SIGKILL)
  // leaves the run going on with nobody to read it. It stops as for a closed terminal.
  watchLauncher((launcher) => {
    if (interruptedBy) return;
    process.stderr.write(`\n${launcher.name} (pid ${launcher.pid}), which started this run, is gone.`);
    interrupt('SIGHUP', false);
  });
  try {
    const result = await runConformance({
      // Left out when not typed: a replay then runs against the target its file recorded.
      ...(program.getOptionValueSource('target') === 'default' ? {} : { target: opts.target }),
      invocation: cliInvocation(),
      depth: opts.depth,
      reporters: opts.reporter ?? ['table'],
      allowProduction: opts.allowProduction,
      deadlineMs: opts.deadline * 1000,
      // The deadline counts from the moment the command was launched, start-up included.
      deadlineFrom: Math.round(performance.timeOrigin),
      strict: opts.strict,
      redactor,
      signal: controller.signal,
      progress: (line: string) => process.stderr.write(`  ${terminalSafe(line)}\n`),
      print: (text: string) => process.stdout.write(`${terminalSafe(text)}\n`),
      ...(opts.rules !== undefined ? { rules: opts.rules } : {}),
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
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
      ReportWriteError,
      ProfileFileError,
      ProfileValidationError,
      MissingEnvironmentVariableError,
      ShortSecretError,
    ].some((kind) => error instanceof kind);
    const message = redactor.redact(String((error as Error)?.message ?? error)).replace(/\s*\n\s*/g, ' ');
    process.stderr.write(
      `${terminalSafe(`conformance: ${known ? message : `unexpected error: ${message}`}`)}\n`,
    );
    return known ? EXIT_CODES.badInput : EXIT_CODES.incomplete;
  }
}

// A reader that went away (the terminal of a killed npm, `| head`) is no reason to stop writing the
// reports: what cannot be printed is dropped.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });

const exitCode = await main();
// Whatever the run started and did not stop (a Prism mock) must not outlive it, and
// nothing left in the event loop (an idle keep-alive socket, a timer) may hold the exit back.
killDescendants('SIGKILL');
process.exit(exitCode);
