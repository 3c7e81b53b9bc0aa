import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOpenApiDocument, openApiJsonPath, operationCatalogue } from '@cloud-api/spec';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { jsonReport } from '../reporters/jsonReport.js';
import { junitReport } from '../reporters/junitReport.js';
import { markdownReport } from '../reporters/markdownReport.js';
import { type ReportWriter, reportContext } from '../reporters/reportWriter.js';
import {
  type CreatedRecord,
  exitCodeOf,
  gateOf,
  notRunOutcome,
  type RunOutcome,
  ruleOutcomes,
  schemaAuditOutcome,
  type TestOutcome,
  testOutcomes,
  totalsOf,
  verdictOf,
} from '../reporters/runOutcome.js';
import { tableReport } from '../reporters/tableReport.js';
import { rules as catalogue, findRule, selectRules, type TargetKind } from '../ruleCatalogue/index.js';
import { type DeclaredCheck, declaredChecks } from '../ruleCatalogue/traceability.js';
import { createSecretRedactor, type SecretRedactor } from '../secrets/secretRedactor.js';
import { runCoverage } from '../specCoverage/coverageReport.js';
import type { ReplayCase, RunConfig } from '../suite/runConfig.js';
import { SCHEMA_AUDIT_CHECK } from '../suite/schemaAudit.js';
import {
  loadProfileFile,
  profileSecrets,
  redactProfile,
  scopeNames,
  type TargetProfile,
} from '../targetProfile/index.js';
import { startPrismTarget } from '../targets/prismTarget.js';
import type { RunningTarget } from '../targets/runningTarget.js';
import { embeddedSandboxProfile, loadSandboxModule, startSandboxTarget } from '../targets/sandboxTarget.js';
import { outputDirectoryProblem } from './outputDirectory.js';

export const reportWriters: Readonly<Record<string, ReportWriter>> = {
  table: tableReport,
  json: jsonReport,
  junit: junitReport,
  markdown: markdownReport,
};

/** Runs per property beyond this would take hours against a real target: surely a typo. */
export const MAX_DEPTH = 10_000;
export const MAX_CONCURRENCY = 32;
/** Enough to hide a remote target's latency, few enough that no target reads it as a burst. */
export const DEFAULT_CONCURRENCY = 4;

/**
 * Requests in flight for independent cases: the option, else the profile, else the default;
 * never more than the profile's rate limit lets arrive in one second, and 1 for a replay.
 */
export function effectiveConcurrency(
  requested: number | undefined,
  profile: TargetProfile,
  replaying: boolean,
): number {
  if (replaying) return 1;
  const wanted = requested ?? profile.concurrency ?? DEFAULT_CONCURRENCY;
  const byRate = profile.rateLimitPerSecond ? Math.max(1, Math.floor(profile.rateLimitPerSecond)) : wanted;
  return Math.max(1, Math.min(wanted, byRate));
}
export const MAX_SEED = 2 ** 31 - 1;

export interface RunOptions {
  /** `sandbox` (default, in-process), `prism`, or a profile file path. */
  readonly target?: string;
  /** Use this profile object instead of a file (programmatic use and tests). */
  readonly profile?: TargetProfile;
  readonly rules?: string;
  readonly depth?: number;
  readonly seed?: number;
  /** Requests in flight at once for independent cases (default: the profile's, else 4). */
  readonly concurrency?: number;
  readonly reporters?: readonly string[];
  readonly outDir?: string;
  readonly replayFile?: string;
  readonly allowProduction?: boolean;
  readonly shard?: string;
  /** Whole-run deadline; checks still running then are cancelled and reported. */
  readonly deadlineMs?: number;
  /**
   * When the deadline starts counting (ms since the epoch; default: now). The CLI passes its
   * process start, so `--deadline 5` ends the process about 5 s after it was launched, however
   * slow the start-up was.
   */
  readonly deadlineFrom?: number;
  readonly sandboxFault?: string;
  readonly sandboxVariant?: string;
  readonly print?: (text: string) => void;
  /** Called with one line (tokens redacted) as each check finishes; the CLI writes them to stderr. */
  readonly progress?: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
  /** Aborting (Ctrl-C) cancels the run; the target is still stopped. */
  readonly signal?: AbortSignal;
  /** Gate mode: inconclusive rules and undeclared skips fail the run (also the profile's `strict`). */
  readonly strict?: boolean;
  /**
   * The run's redaction source. The engine feeds it every secret it meets (token fields, `${VAR}`
   * values, derived tokens) as soon as it meets them; the CLI passes its own so that everything
   * it prints, errors included, goes through the same one.
   */
  readonly redactor?: SecretRedactor;
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

async function resolveTarget(options: RunOptions, redactor: SecretRedactor): Promise<ResolvedTarget> {
  const target = options.target ?? 'sandbox';
  if (options.profile) {
    redactor.add(...profileSecrets(options.profile));
    return { profile: options.profile, kind: 'real' };
  }
  if (target === 'sandbox') {
    const sandbox = await loadSandboxModule();
    const base = embeddedSandboxProfile(sandbox.defaultSandboxProfile(), scopeNames());
    redactor.add(...profileSecrets(base));
    const running = await startSandboxTarget(base, {
      fault: options.sandboxFault,
      variant: options.sandboxVariant,
    });
    return { profile: { ...base, baseUrl: running.baseUrl }, kind: 'sandbox', running };
  }
  if (target === 'prism') {
    const profile = loadProfileFile(join(packageRoot, 'profiles', 'prism.yaml'), options.env, redactor);
    const running = await startPrismTarget(options.signal);
    return { profile: { ...profile, baseUrl: running.baseUrl }, kind: 'prism', running };
  }
  const profile = loadProfileFile(target, options.env, redactor);
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
  if (!match || count < 1 || index < 1 || index > count || count > 1000)
    throw new RunSetupError(`--shard ${shard}: use i/n with 1 <= i <= n, e.g. --shard 1/3`);
}

const REPLAY_HINT = 'pass the file named after "replay:" in a failure report';
const FAST_CHECK_PATH = /^\d+(:\d+)*$/;

function readReplayFile(path: string, checks: readonly DeclaredCheck[]): ReplayFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RunSetupError(
      `--replay ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a replay file' : `cannot read it (${code ?? (error as Error).message})`}; ${REPLAY_HINT}`,
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
  const problem = !findRule(parsed.rule)
    ? `rule ${JSON.stringify(parsed.rule)} is not in this suite's catalogue`
    : !checks.some((check) => check.title === parsed.test)
      ? `check ${JSON.stringify(parsed.test)} is not in this suite (written by another version?)`
      : !FAST_CHECK_PATH.test(parsed.path)
        ? `path ${JSON.stringify(parsed.path)} is not a fast-check path (numbers separated by ":")`
        : !Number.isInteger(parsed.seed) || parsed.seed < -MAX_SEED - 1 || parsed.seed > MAX_SEED
          ? `seed ${parsed.seed} is not a 32-bit integer`
          : parsed.depth !== undefined &&
              (typeof parsed.depth !== 'number' ||
                !Number.isInteger(parsed.depth) ||
                parsed.depth < 1 ||
                parsed.depth > MAX_DEPTH)
            ? `depth ${JSON.stringify(parsed.depth)} is not an integer from 1 to ${MAX_DEPTH}`
            : undefined;
  if (problem) throw new RunSetupError(`--replay ${path}: ${problem}; ${REPLAY_HINT}`);
  return parsed as ReplayFile;
}

function readCreated(runDir: string): CreatedRecord[] {
  const file = join(runDir, 'created.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as CreatedRecord];
      } catch {
        return []; // A line cut short by a killed worker: the rest of the log still counts.
      }
    });
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
    const verdict = (testCase.meta() as { conformanceVerdict?: { state: string; reason: string } })
      .conformanceVerdict;
    const durationMs = testCase.diagnostic()?.duration;
    const took = durationMs === undefined ? '' : ` (${(durationMs / 1000).toFixed(1)} s)`;
    // A check vitest never started (the run was cancelled) is reported as not run, never "pending".
    const state = verdict?.state ?? (result.state === 'pending' ? 'not run' : result.state);
    this.progress(`${state.padEnd(7)} ${testCase.name}${took}${verdict ? `: ${verdict.reason}` : ''}`);
  }
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<{ message?: string }>,
  ): void {
    this.modules = testModules;
    this.unhandled = unhandledErrors.map((e) => e.message ?? String(e));
  }
}

/** Rules selected by `--rules`: an empty selection is a mistake, never "every rule". */
function ruleSelection(rules: string | undefined): string[] | undefined {
  if (rules === undefined) return undefined;
  if (rules.split(',').every((part) => part.trim() === ''))
    throw new RunSetupError(
      `--rules ${JSON.stringify(rules)}: names no rule. Pass rule IDs or patterns such as "WS-*,AUTH-1", or leave --rules out to run every rule.`,
    );
  return selectedRules(rules);
}

/** Why checks did not run, in the words the report uses. */
function notRunReason(state: {
  interrupted: boolean;
  deadlineReached: boolean;
  deadlineSeconds: number;
  workerLost: boolean;
}): string {
  if (state.interrupted) return 'the run was interrupted (Ctrl-C or SIGTERM)';
  if (state.deadlineReached) return `the run deadline (--deadline ${state.deadlineSeconds} s) passed`;
  if (state.workerLost) return 'the process running the checks stopped (see run errors)';
  return 'the run stopped before this check';
}

/**
 * How long closing vitest's worker pool may take before the run stops waiting: the processes
 * left are killed by the CLI, and the reports are already written.
 */
const CLOSE_WAIT_MS = 2_000;

/** A compiled module: any workspace package's `dist/`, the property files included. */
const COMPILED_MODULE = /[\\/]dist[\\/].*\.js$/;

/**
 * The programmable core: resolves and starts the target, runs the property files with vitest,
 * writes the reports, and always stops what it started. Bad input is refused with a
 * RunSetupError before any request is sent.
 */
export async function runConformance(options: RunOptions = {}): Promise<RunResult> {
  const redactor = options.redactor ?? createSecretRedactor();
  const rawPrint = options.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  const print = (text: string): void => rawPrint(redactor.redact(text));
  const reporterNames = options.reporters && options.reporters.length > 0 ? options.reporters : ['table'];
  for (const name of reporterNames) {
    if (!reportWriters[name])
      throw new RunSetupError(
        `--reporter ${name}: unknown reporter; use one of ${Object.keys(reportWriters).join(', ')}`,
      );
  }
  const depth = options.depth ?? 25;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH)
    throw new RunSetupError(
      `--depth ${depth}: must be an integer from 1 to ${MAX_DEPTH} (runs per property)`,
    );
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED)
    throw new RunSetupError(`--seed ${seed}: must be an integer from 0 to ${MAX_SEED}`);
  if (
    options.concurrency !== undefined &&
    (!Number.isInteger(options.concurrency) ||
      options.concurrency < 1 ||
      options.concurrency > MAX_CONCURRENCY)
  )
    throw new RunSetupError(
      `--concurrency ${options.concurrency}: must be an integer from 1 to ${MAX_CONCURRENCY} (requests in flight)`,
    );
  if (options.shard) checkShard(options.shard);
  const deadlineMs = options.deadlineMs ?? 10 * 60_000;
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0)
    throw new RunSetupError(`--deadline: must be a positive number of seconds`);

  const checks = declaredChecks(propertiesDir());
  const replayFile = options.replayFile ? readReplayFile(options.replayFile, checks) : undefined;
  const selected = replayFile ? [replayFile.rule] : ruleSelection(options.rules);
  const replay: ReplayCase | undefined = replayFile
    ? { testTitle: replayFile.test, seed: replayFile.seed, path: replayFile.path }
    : undefined;

  // Checked before any target starts or any request is sent: a run that cannot write its reports
  // must not spend the target's time first.
  if (options.outDir !== undefined) {
    const problem = outputDirectoryProblem(options.outDir);
    if (problem) throw new RunSetupError(problem);
  }
  const outDir = options.outDir ?? mkdtempSync(join(tmpdir(), 'conformance-'));
  const startedAt = new Date();

  // Vitest's loading (a fifth of a second) overlaps the target's start-up.
  const vitestNode = import('vitest/node');
  vitestNode.catch(() => undefined);
  const target = await resolveTarget(options, redactor);
  // Outside the report directory, and removed afterwards: every file under --out is the run's own.
  const cacheDir = mkdtempSync(join(tmpdir(), 'conformance-vite-'));
  let vitest: Awaited<ReturnType<typeof import('vitest/node').createVitest>> | undefined;
  const onAbort = (): void => {
    void vitest?.cancelCurrentRun('keyboard-input');
  };
  options.signal?.addEventListener('abort', onAbort);
  let deadlineReached = false;
  try {
    productionGuard(target.profile, options.allowProduction === true);
    const strict = options.strict === true || target.profile.strict === true;
    const config: RunConfig = {
      profile: target.profile,
      targetKind: target.kind,
      depth: replayFile?.depth ?? depth,
      seed: replay?.seed ?? seed,
      concurrency: effectiveConcurrency(options.concurrency, target.profile, replay !== undefined),
      runDir: outDir,
      deadlineAt: (options.deadlineFrom ?? startedAt.getTime()) + deadlineMs,
      secrets: redactor.secrets,
      ...(replay ? { replay } : {}),
    };
    const progress = options.progress;
    const collector = new RuleResultsReporter(progress && ((line) => progress(redactor.redact(line))));
    const namePattern = replay
      ? new RegExp(`^${escapeRegex(replay.testTitle)}$`)
      : selected
        ? new RegExp(`^(${selected.map(escapeRegex).join('|')}) `)
        : undefined;
    // Armed before vitest exists: a start-up slower than the deadline must not let the run begin.
    const deadline = setTimeout(
      () => {
        deadlineReached = true;
        void vitest?.cancelCurrentRun('keyboard-input');
      },
      Math.max(0, config.deadlineAt - Date.now()),
    );
    const stopped = (): boolean => options.signal?.aborted === true || deadlineReached;
    const { createVitest } = await vitestNode;
    if (!stopped())
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
            // Compiled modules load natively in the worker, property files included: they are
            // plain ESM and mock nothing, so Vite's transform (a third of a second per run here)
            // adds nothing. Run from TypeScript sources, they still go through it.
            server: { deps: { external: [COMPILED_MODULE] } },
            // A 16 MB young generation: at 1 MB a run spent a tenth of its time in scavenges,
            // and the chaos test's huge bodies stay far under its memory bound either way.
            execArgv: ['--max-semi-space-size=16'],
            ...(namePattern ? { testNamePattern: namePattern } : {}),
            ...(options.shard ? { shard: options.shard } : {}),
          },
          { logLevel: 'silent', cacheDir },
        ),
      );
    try {
      // Interrupted, or out of time, while the target or vitest was starting: nothing to run, but
      // still report. At the deadline the workers abort the request in flight themselves.
      if (vitest && !stopped()) await vitest.start();
    } finally {
      clearTimeout(deadline);
    }
    if (Date.now() >= config.deadlineAt) deadlineReached = true;
    const interrupted = options.signal?.aborted === true;
    const workerLost = collector.unhandled.length > 0;
    const why = notRunReason({
      interrupted,
      deadlineReached,
      deadlineSeconds: deadlineMs / 1000,
      workerLost,
    });
    const redact = (text: string): string => redactor.redact(text);
    const { tests, runErrors, coverage, schemaAudits } = testOutcomes(collector.modules, redact, why);
    // Tests left out by --rules/--replay/--shard are not part of this run's report.
    const inSelection = (title: string): boolean => !namePattern || namePattern.test(title);
    const ranTests: TestOutcome[] = tests.filter((t) => inSelection(t.title));
    // Nothing collected (stopped before the checks were loaded): every selected check is listed as not run.
    if (collector.modules.length === 0 && !options.shard)
      for (const check of checks.filter((c) => inSelection(c.title)))
        ranTests.push(notRunOutcome(check, why));
    // RESP-1 also holds every answer of the run to its schema, unless RESP-1 is left out or skipped.
    if (
      collector.modules.length > 0 &&
      inSelection(SCHEMA_AUDIT_CHECK.title) &&
      ranTests.some((t) => t.rule === 'RESP-1' && t.state !== 'skipped')
    ) {
      const audit = schemaAuditOutcome(schemaAudits);
      ranTests.push(audit);
      const why =
        audit.state === 'failed'
          ? `: ${audit.failures.length} answer${audit.failures.length === 1 ? '' : 's'} outside the spec schema`
          : audit.reason
            ? `: ${audit.reason}`
            : '';
      progress?.(redact(`${audit.state.padEnd(7)} ${audit.title}${why}`));
    }
    const order = new Map(catalogue.map((rule, index) => [rule.id, index]));
    const rules = ruleOutcomes(ranTests).sort((a, b) => (order.get(a.id) ?? 999) - (order.get(b.id) ?? 999));
    const totals = totalsOf(rules);
    const allRunErrors = [...runErrors, ...collector.unhandled.map(redact)];
    const unfinished = ranTests.filter((t) => t.state === 'incomplete').length;
    const incompleteReasons = [
      ...(interrupted ? ['the run was interrupted (Ctrl-C or SIGTERM)'] : []),
      ...(deadlineReached && !interrupted
        ? [`the run deadline (--deadline ${deadlineMs / 1000} s) passed before every check finished`]
        : []),
      ...(allRunErrors.length > 0
        ? ['errors outside the checks stopped part of the run (see run errors)']
        : []),
      ...(unfinished > 0 ? [`${unfinished} check${unfinished === 1 ? '' : 's'} did not finish`] : []),
      ...(replay && ranTests.length === 0 ? ['the replayed check did not run'] : []),
    ];
    const gate = gateOf(strict, rules);
    const outcome: RunOutcome = {
      info: {
        suiteVersion: suiteVersion(),
        specHash: specHash(),
        target: redact(target.profile.name),
        targetKind: target.kind,
        seed: config.seed,
        depth: config.depth,
        concurrency: config.concurrency,
        profile: redactProfile(target.profile, redactor),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        ...(options.shard ? { shard: options.shard } : {}),
      },
      verdict: verdictOf(totals, incompleteReasons, gate),
      incompleteReasons,
      gate,
      rules,
      tests: ranTests,
      runErrors: allRunErrors,
      created: readCreated(outDir).map((record) => ({
        rule: redact(record.rule),
        kind: redact(record.kind),
        id: redact(record.id),
        cleanup: redact(record.cleanup),
      })),
      totals,
      coverage: runCoverage(operationCatalogue(loadOpenApiDocument()), coverage),
    };
    const context = reportContext(outDir, print, redactor);
    for (const name of reporterNames) reportWriters[name]?.write(outcome, context);
    return { exitCode: exitCodeOf(outcome), outcome, outDir };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await Promise.race([
      vitest?.close().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
    ]);
    await target.running?.stop().catch(() => undefined);
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
