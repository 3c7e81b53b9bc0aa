import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiJsonPath } from '@cloud-api/spec';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { jsonReport } from '../reporters/jsonReport.js';
import { junitReport } from '../reporters/junitReport.js';
import type { ReportWriter } from '../reporters/reportWriter.js';
import {
  type CreatedRecord,
  exitCodeOf,
  type RunOutcome,
  ruleOutcomes,
  testOutcomes,
  totalsOf,
} from '../reporters/runOutcome.js';
import { tableReport } from '../reporters/tableReport.js';
import { rules as catalogue, selectRules, type TargetKind } from '../ruleCatalogue/index.js';
import type { ReplayCase, RunConfig } from '../suite/runConfig.js';
import {
  loadProfileFile,
  profileSecrets,
  redactProfile,
  redactText,
  scopeNames,
  type TargetProfile,
} from '../targetProfile/index.js';
import { startPrismTarget } from '../targets/prismTarget.js';
import type { RunningTarget } from '../targets/runningTarget.js';
import { embeddedSandboxProfile, loadSandboxModule, startSandboxTarget } from '../targets/sandboxTarget.js';

export const reportWriters: Readonly<Record<string, ReportWriter>> = {
  table: tableReport,
  json: jsonReport,
  junit: junitReport,
};

export interface RunOptions {
  /** `sandbox` (default, in-process), `prism`, or a profile file path. */
  readonly target?: string;
  /** Use this profile object instead of a file (programmatic use and tests). */
  readonly profile?: TargetProfile;
  readonly rules?: string;
  readonly depth?: number;
  readonly seed?: number;
  readonly reporters?: readonly string[];
  readonly outDir?: string;
  readonly replayFile?: string;
  readonly allowProduction?: boolean;
  readonly shard?: string;
  /** Whole-run deadline; checks still running then are cancelled and reported. */
  readonly deadlineMs?: number;
  readonly sandboxFault?: string;
  readonly sandboxVariant?: string;
  readonly print?: (text: string) => void;
  /** Called with one line (tokens redacted) as each check finishes; the CLI writes them to stderr. */
  readonly progress?: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
  /** Aborting (Ctrl-C) cancels the run; the target is still stopped. */
  readonly signal?: AbortSignal;
}

export interface RunResult {
  readonly exitCode: number;
  readonly outcome: RunOutcome;
  readonly outDir: string;
}

/** Bad options or a refused profile: printed as one clear message, never a stack trace. */
export class RunSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunSetupError';
  }
}

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

function suiteVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

function specHash(): string {
  return createHash('sha256').update(readFileSync(openApiJsonPath)).digest('hex');
}

/** Property files next to the engine: `*.property.js` in dist, `*.property.ts` when run from source. */
function propertiesDir(): string {
  return fileURLToPath(new URL('../properties/', import.meta.url));
}

/** The workers' setup file, next to this module: TypeScript when run from src, else JavaScript. */
function workerSignalsPath(): string {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return fileURLToPath(new URL(`../suite/workerSignals.${extension}`, import.meta.url));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface ResolvedTarget {
  readonly profile: TargetProfile;
  readonly kind: TargetKind;
  readonly running?: RunningTarget;
}

async function resolveTarget(options: RunOptions): Promise<ResolvedTarget> {
  const target = options.target ?? 'sandbox';
  if (options.profile) return { profile: options.profile, kind: 'real' };
  if (target === 'sandbox') {
    const sandbox = await loadSandboxModule();
    const base = embeddedSandboxProfile(sandbox.defaultSandboxProfile(), scopeNames());
    const running = await startSandboxTarget(base, {
      fault: options.sandboxFault,
      variant: options.sandboxVariant,
    });
    return { profile: { ...base, baseUrl: running.baseUrl }, kind: 'sandbox', running };
  }
  if (target === 'prism') {
    const profile = loadProfileFile(join(packageRoot, 'profiles', 'prism.yaml'), options.env);
    const running = await startPrismTarget(options.signal);
    return { profile: { ...profile, baseUrl: running.baseUrl }, kind: 'prism', running };
  }
  const profile = loadProfileFile(target, options.env);
  return { profile, kind: profile.name === 'prism' ? 'prism' : 'real' };
}

/** A production profile runs only when the profile and the command line both allow it. */
export function productionGuard(profile: TargetProfile, allowProductionFlag: boolean): void {
  if (profile.environment !== 'production') return;
  if (profile.allowProduction === true && allowProductionFlag) return;
  const missing = [
    ...(profile.allowProduction === true ? [] : ['the profile sets "allowProduction: true"']),
    ...(allowProductionFlag ? [] : ['the command line passes --allow-production']),
  ];
  throw new RunSetupError(
    `Refusing to run against production profile "${profile.name}": it runs only when ${missing.join(' and ')}.`,
  );
}

interface ReplayFile {
  readonly kind: 'conformance-replay';
  readonly rule: string;
  readonly test: string;
  readonly seed: number;
  readonly path: string;
  readonly depth?: number;
}

function selectedRules(selection: string): string[] {
  try {
    return selectRules(selection);
  } catch (error) {
    throw new RunSetupError((error as Error).message);
  }
}

function checkShard(shard: string): void {
  const match = /^(\d+)\/(\d+)$/.exec(shard);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw new RunSetupError(`--shard ${shard}: use i/n with 1 <= i <= n, e.g. --shard 1/3`);
}

const REPLAY_HINT = 'pass the file named after "replay:" in a failure report';

function readReplayFile(path: string): ReplayFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RunSetupError(
      `--replay ${path}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? (error as Error).message})`}; ${REPLAY_HINT}`,
    );
  }
  let parsed: Partial<ReplayFile>;
  try {
    parsed = JSON.parse(text) as Partial<ReplayFile>;
  } catch {
    throw new RunSetupError(`--replay ${path}: not JSON, so not a replay file; ${REPLAY_HINT}`);
  }
  if (
    !parsed ||
    typeof parsed !== 'object' ||
    parsed.kind !== 'conformance-replay' ||
    typeof parsed.rule !== 'string' ||
    typeof parsed.test !== 'string' ||
    typeof parsed.seed !== 'number' ||
    typeof parsed.path !== 'string'
  ) {
    throw new RunSetupError(
      `--replay ${path}: not a replay file written by a conformance failure (needs kind, rule, test, seed, path); ${REPLAY_HINT}`,
    );
  }
  return parsed as ReplayFile;
}

function readCreated(runDir: string): CreatedRecord[] {
  const file = join(runDir, 'created.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CreatedRecord);
}

const INTERRUPT_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * vitest's node API installs SIGINT/SIGTERM handlers that exit the process at once, before the
 * reports are written and the target is stopped. The caller's `signal` handles interruption
 * instead, so the handlers `create` adds are removed again.
 */
async function keepingSignalHandlers<T>(create: () => Promise<T>): Promise<T> {
  const before = new Map(INTERRUPT_SIGNALS.map((name) => [name, new Set(process.listeners(name))]));
  try {
    return await create();
  } finally {
    for (const name of INTERRUPT_SIGNALS)
      for (const listener of process.listeners(name))
        if (!before.get(name)?.has(listener)) process.removeListener(name, listener);
  }
}

/**
 * Collects the finished test modules (the per-rule table and files are written from them) and,
 * as each check finishes, tells `progress`, so a long run against a real environment is not silent.
 */
class RuleResultsReporter implements Reporter {
  modules: readonly TestModule[] = [];
  unhandled: string[] = [];
  constructor(private readonly progress: ((line: string) => void) | undefined) {}
  onTestCaseResult(testCase: TestCase): void {
    if (!this.progress) return;
    const result = testCase.result();
    if (result.state === 'skipped') {
      // Without a note it was left out by --rules, --replay or --shard: not part of this run.
      if (result.note) this.progress(`skipped ${testCase.name}: ${result.note}`);
      return;
    }
    const durationMs = testCase.diagnostic()?.duration;
    const took = durationMs === undefined ? '' : ` (${(durationMs / 1000).toFixed(1)} s)`;
    this.progress(`${result.state.padEnd(7)} ${testCase.name}${took}`);
  }
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<{ message?: string }>,
  ): void {
    this.modules = testModules;
    this.unhandled = unhandledErrors.map((e) => e.message ?? String(e));
  }
}

/**
 * The programmable core: resolves and starts the target, runs the property files with vitest,
 * writes the reports, and always stops what it started.
 */
export async function runConformance(options: RunOptions = {}): Promise<RunResult> {
  const print = options.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  const reporterNames = options.reporters && options.reporters.length > 0 ? options.reporters : ['table'];
  for (const name of reporterNames) {
    if (!reportWriters[name])
      throw new RunSetupError(
        `--reporter ${name}: unknown reporter; use one of ${Object.keys(reportWriters).join(', ')}`,
      );
  }
  const depth = options.depth ?? 25;
  if (!Number.isInteger(depth) || depth < 1)
    throw new RunSetupError(`--depth ${depth}: must be a positive integer (runs per property)`);
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) throw new RunSetupError(`--seed ${seed}: must be an integer`);
  if (options.shard) checkShard(options.shard);

  const replayFile = options.replayFile ? readReplayFile(options.replayFile) : undefined;
  const selected = replayFile ? [replayFile.rule] : options.rules ? selectedRules(options.rules) : undefined;
  const replay: ReplayCase | undefined = replayFile
    ? { testTitle: replayFile.test, seed: replayFile.seed, path: replayFile.path }
    : undefined;

  const outDir = options.outDir ?? mkdtempSync(join(tmpdir(), 'conformance-'));
  mkdirSync(outDir, { recursive: true });
  const startedAt = new Date();
  const deadlineMs = options.deadlineMs ?? 10 * 60_000;

  const target = await resolveTarget(options);
  const secrets = profileSecrets(target.profile);
  const redact = (text: string): string => redactText(text, secrets);
  let vitest: Awaited<ReturnType<typeof import('vitest/node').createVitest>> | undefined;
  const onAbort = (): void => {
    void vitest?.cancelCurrentRun('keyboard-input');
  };
  options.signal?.addEventListener('abort', onAbort);
  try {
    productionGuard(target.profile, options.allowProduction === true);
    const config: RunConfig = {
      profile: target.profile,
      targetKind: target.kind,
      depth: replayFile?.depth ?? depth,
      seed: replay?.seed ?? seed,
      runDir: outDir,
      deadlineAt: Date.now() + deadlineMs,
      ...(replay ? { replay } : {}),
    };
    const progress = options.progress;
    const collector = new RuleResultsReporter(progress && ((line) => progress(redact(line))));
    const namePattern = replay
      ? new RegExp(`^${escapeRegex(replay.testTitle)}$`)
      : selected
        ? new RegExp(`^(${selected.map(escapeRegex).join('|')}) `)
        : undefined;
    const { createVitest } = await import('vitest/node');
    vitest = await keepingSignalHandlers(() =>
      createVitest(
        'test',
        {
          config: false,
          root: propertiesDir(),
          dir: propertiesDir(),
          include: ['**/*.property.{js,ts}'],
          watch: false,
          reporters: [collector],
          provide: { conformanceRun: config },
          // A terminal's Ctrl-C reaches the worker processes too: they ignore it and let this
          // process cancel the run, so the check in progress can put back what it changed.
          setupFiles: [workerSignalsPath()],
          fileParallelism: false,
          isolate: false,
          testTimeout: Math.min(deadlineMs, 300_000),
          hookTimeout: 30_000,
          passWithNoTests: true,
          silent: true,
          ...(namePattern ? { testNamePattern: namePattern } : {}),
          ...(options.shard ? { shard: options.shard } : {}),
        },
        { logLevel: 'silent', cacheDir: join(outDir, '.vite') },
      ),
    );
    const deadline = setTimeout(() => void vitest?.cancelCurrentRun('keyboard-input'), deadlineMs + 5_000);
    try {
      // Interrupted while the target or vitest was starting: nothing to run, but still report.
      if (!options.signal?.aborted) await vitest.start();
    } finally {
      clearTimeout(deadline);
    }
    const { tests, runErrors } = testOutcomes(collector.modules, redact);
    // Tests left out by --rules/--replay are not part of this run's report.
    const interrupted = options.signal?.aborted === true;
    const ranTests = tests
      .filter((t) => !namePattern || namePattern.test(t.title))
      .map((t) =>
        // vitest reports the checks a cancelled run never reached as skipped, without a reason.
        interrupted && t.state === 'skipped' && !t.skipReason
          ? { ...t, skipReason: 'not run: the run was interrupted' }
          : t,
      );
    const order = new Map(catalogue.map((rule, index) => [rule.id, index]));
    const rules = ruleOutcomes(ranTests).sort((a, b) => (order.get(a.id) ?? 999) - (order.get(b.id) ?? 999));
    const outcome: RunOutcome = {
      info: {
        suiteVersion: suiteVersion(),
        specHash: specHash(),
        target: target.profile.name,
        targetKind: target.kind,
        seed: config.seed,
        depth: config.depth,
        profile: redactProfile(target.profile),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        ...(options.shard ? { shard: options.shard } : {}),
      },
      rules,
      tests: ranTests,
      runErrors: [
        ...runErrors,
        ...collector.unhandled.map(redact),
        ...(interrupted
          ? ['run interrupted (Ctrl-C or SIGTERM): the checks it did not reach are reported as not run']
          : []),
      ],
      created: readCreated(outDir),
      totals: totalsOf(rules),
    };
    for (const name of reporterNames)
      reportWriters[name]?.write(outcome, { outDir, print: (text) => print(redact(text)) });
    return { exitCode: exitCodeOf(outcome), outcome, outDir };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await vitest?.close().catch(() => undefined);
    await target.running?.stop().catch(() => undefined);
  }
}
