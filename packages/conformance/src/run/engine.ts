import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOpenApiDocument, openApiJsonPath, operationCatalogue } from '@cloud-api/spec';
import type { CheckResult } from '../checks/check.js';
import { acceptanceRecordAudits } from '../checks/identifierAudit.js';
import { checkRegistry, findCheck, type RegisteredCheck } from '../checks/registry.js';
import { SCHEMA_AUDIT_CHECK, type SchemaAuditFindings, schemaAuditVerdict } from '../checks/schemaAudit.js';
import { createReporter, progressReporter, reportContext, reportersProblem } from '../reporters/index.js';
import { rules as catalogue } from '../ruleCatalogue/index.js';
import { createSecretRedactor, type SecretRedactor } from '../secrets/secretRedactor.js';
import type { CoverageDelta } from '../specCoverage/coverageRecorder.js';
import { runCoverage } from '../specCoverage/coverageReport.js';
import { redactProfile, type TargetProfile } from '../targetProfile/index.js';
import { runCheck } from './checkRunner.js';
import type { CheckRef, Reporter, RunEvent } from './events.js';
import { exchangeEvents } from './exchangeEvent.js';
import { DEFAULT_DEADLINE_SECONDS, DEFAULT_DEPTH, integerOption, OPTION_LIMITS } from './options.js';
import type { RunOutcome, TestOutcome } from './outcome.js';
import {
  firstMissingDirectory,
  outputDirectoryProblem,
  removeIfEmpty,
  setAsideEarlierRun,
} from './outputDirectory.js';
import { planChecks, plansRunAudit } from './plan.js';
import { preflight } from './preflight.js';
import { type RecordedTarget, type ReplayCase, readReplayFile } from './replayFile.js';
import { PROFILE_OBJECT, type PreparedRun, prepareRun } from './runSetup.js';
import { RunSetupError } from './runSetupError.js';
import { serverErrorStreakTracker } from './serverErrorStreak.js';
import { StopReason } from './stopReason.js';
import { suiteBuild, suiteVersion } from './suiteVersion.js';
import {
  exitCodeOf,
  gateOf,
  inCatalogueOrder,
  incompleteReasonsOf,
  notRunOutcome,
  ruleOutcomes,
  testOutcomeOf,
  totalsOf,
  verdictOf,
} from './verdict.js';

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
  /** Reporter names (`table`, `json`, `junit`, `markdown`) or reporter objects. Default: table. */
  readonly reporters?: readonly (string | Reporter)[];
  readonly outDir?: string;
  readonly replayFile?: string;
  readonly allowProduction?: boolean;
  readonly shard?: string;
  /** Whole-run deadline; checks still running then are stopped and reported. */
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
  /** Aborting (Ctrl-C) stops the run: the check in progress stops, reports are still written. */
  readonly signal?: AbortSignal;
  /** Gate mode: inconclusive rules, undeclared skips and partly checked passes fail the run (also the profile's `strict`). */
  readonly strict?: boolean;
  /**
   * The run's redaction source. The engine feeds it every secret it meets (token fields, `${VAR}`
   * values, derived tokens) as soon as it meets them; the CLI passes its own so that everything
   * it prints, errors included, goes through the same one.
   */
  readonly redactor?: SecretRedactor;
  /** How the user runs the CLI (`pnpm conformance`, `npx cloud-api-conformance`…), for printed replay commands. */
  readonly invocation?: string;
}

export interface RunResult {
  readonly exitCode: number;
  readonly outcome: RunOutcome;
  readonly outDir: string;
}

function specHash(): string {
  return createHash('sha256').update(readFileSync(openApiJsonPath)).digest('hex');
}

/** The reporters asked for, by name or as objects; an unknown name is bad input. */
function chosenReporters(chosen: RunOptions['reporters'], outDirChosen: boolean): Reporter[] {
  const list = chosen && chosen.length > 0 ? chosen : ['table'];
  const problem = reportersProblem(
    list.filter((entry) => typeof entry === 'string'),
    outDirChosen,
  );
  if (problem) throw new RunSetupError(problem);
  return list.map((entry) => (typeof entry === 'string' ? createReporter(entry) : entry));
}

/** Every option checked once, before any target starts or any request is sent. */
function checkedOptions(options: RunOptions) {
  const reporters = chosenReporters(options.reporters, options.outDir !== undefined);
  const depth = integerOption('--depth', options.depth ?? DEFAULT_DEPTH, OPTION_LIMITS.depth);
  const seed = integerOption(
    '--seed',
    options.seed ?? Math.floor(Math.random() * 2 ** 31),
    OPTION_LIMITS.seed,
  );
  const concurrency =
    options.concurrency === undefined
      ? undefined
      : integerOption('--concurrency', options.concurrency, OPTION_LIMITS.concurrency);
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_SECONDS * 1000;
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0)
    throw new RunSetupError('--deadline: must be a positive number of seconds');
  const replay: ReplayCase | undefined = options.replayFile
    ? readReplayFile(options.replayFile, (title) => findCheck(title) !== undefined)
    : undefined;
  const planOptions = {
    ...(options.rules !== undefined ? { rules: options.rules } : {}),
    ...(options.shard ? { shard: options.shard } : {}),
    ...(replay ? { replay } : {}),
  };
  const planned = planChecks(checkRegistry, planOptions);
  const target = replayTarget(options, replay);
  const withAudit = plansRunAudit(planOptions, SCHEMA_AUDIT_CHECK.rule);
  const recordAudits = acceptanceRecordAudits.filter((audit) => plansRunAudit(planOptions, audit.check.rule));
  const madeOutDir = options.outDir === undefined ? undefined : firstMissingDirectory(options.outDir);
  if (options.outDir !== undefined) {
    const problem = outputDirectoryProblem(options.outDir);
    if (problem) throw new RunSetupError(problem);
  }
  return {
    madeOutDir,
    reporters,
    depth,
    seed,
    concurrency,
    deadlineMs,
    replay,
    planned,
    withAudit,
    recordAudits,
    target,
  };
}

/** One target: the same profile path (or embedded target), started with the same sandbox fault and variant. */
function sameTarget(a: RecordedTarget, b: RecordedTarget): boolean {
  return a.target === b.target && a.sandboxFault === b.sandboxFault && a.sandboxVariant === b.sandboxVariant;
}

/** A target as a notice names it: `sandbox (fault accept-zero-workspace-id)`. */
function targetName(target: RecordedTarget): string {
  const started = [
    ...(target.sandboxFault ? [`fault ${target.sandboxFault}`] : []),
    ...(target.sandboxVariant ? [`variant ${target.sandboxVariant}`] : []),
  ];
  return started.length > 0 ? `${target.target} (${started.join(', ')})` : target.target;
}

/**
 * The target of the run: as given, else the one a replay file recorded (a replay reproduces where
 * the failure was seen, never silently on the embedded sandbox).
 */
function replayTarget(
  options: RunOptions,
  replay: ReplayCase | undefined,
): Pick<RunOptions, 'target' | 'sandboxFault' | 'sandboxVariant'> {
  const given = {
    ...(options.target !== undefined ? { target: options.target } : {}),
    ...(options.sandboxFault ? { sandboxFault: options.sandboxFault } : {}),
    ...(options.sandboxVariant ? { sandboxVariant: options.sandboxVariant } : {}),
  };
  if (!replay || options.target !== undefined || options.profile) return given;
  const recorded = replay.target;
  if (!recorded)
    throw new RunSetupError(
      `--replay ${options.replayFile}: this replay file does not record its target (written by an older version); pass --target with the profile the failure was seen on`,
    );
  if (recorded.target === PROFILE_OBJECT)
    throw new RunSetupError(
      `--replay ${options.replayFile}: the failure was seen by a programmatic run with a profile object; pass --target with that profile's file`,
    );
  return {
    target: recorded.target,
    ...(recorded.sandboxFault ? { sandboxFault: recorded.sandboxFault } : {}),
    ...(recorded.sandboxVariant ? { sandboxVariant: recorded.sandboxVariant } : {}),
  };
}

/** ` (SIGHUP)` when the caller aborted with the signal's name as the reason (the CLI does). */
function signalName(signal: AbortSignal | undefined): string {
  const name = signalOf(signal);
  return name ? ` (${name})` : '';
}

/** The signal's name when the caller aborted with it as the reason (`SIGHUP`), else undefined. */
function signalOf(signal: AbortSignal | undefined): string | undefined {
  const reason: unknown = signal?.reason;
  return typeof reason === 'string' && /^SIG[A-Z]+$/.test(reason) ? reason : undefined;
}

const refOf = (check: { rule: string; title: string }): CheckRef => ({
  rule: check.rule,
  title: check.title,
});

/**
 * The programmable core. Checks the options, starts the target, runs the planned checks one
 * after another (each sends its independent cases `concurrency` at a time), tells the reporters
 * every event, and always stops what it started. Bad input is refused with a RunSetupError
 * before any request is sent.
 */
export async function runConformance(options: RunOptions = {}): Promise<RunResult> {
  const redactor = options.redactor ?? createSecretRedactor();
  const rawPrint = options.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  const settings = checkedOptions(options);
  const reporters = [
    ...(options.progress
      ? [
          progressReporter((line) => options.progress?.(redactor.redact(line)), {
            verdict: !settings.reporters.some((reporter) => reporter.name === 'table'),
          }),
        ]
      : []),
    ...settings.reporters,
  ];
  const outDir = options.outDir ?? mkdtempSync(join(tmpdir(), 'conformance-'));
  const runId = randomUUID();
  const context = reportContext(outDir, rawPrint, redactor, options.outDir !== undefined);
  // A reporter that cannot write (a full disk) does not keep the others from writing theirs; its
  // error then ends the run, at the next event outside a check's request (thrown inside one, it
  // would read as that check's own failure).
  let reportFailure: unknown;
  const emit = (event: RunEvent): void => {
    for (const reporter of reporters) {
      try {
        reporter.onEvent(event, context);
      } catch (error) {
        reportFailure ??= error;
      }
    }
    if (reportFailure !== undefined && event.type !== 'exchange') throw reportFailure;
  };
  const startedAt = new Date();
  const deadlineAt = (options.deadlineFrom ?? startedAt.getTime()) + settings.deadlineMs;
  const deadlineSeconds = settings.deadlineMs / 1000;

  // The run's own stop: Ctrl-C (the caller's signal) or the deadline, whichever comes first.
  const stopRun = new AbortController();
  const onInterrupt = (): void =>
    stopRun.abort(
      new StopReason('interrupted', `not finished: the run was interrupted${signalName(options.signal)}`),
    );
  if (options.signal?.aborted) onInterrupt();
  options.signal?.addEventListener('abort', onInterrupt, { once: true });
  const deadline = setTimeout(
    () =>
      stopRun.abort(
        new StopReason(
          'deadline',
          `not finished: the run deadline (--deadline ${deadlineSeconds} s) passed before the check finished`,
        ),
      ),
    Math.max(0, deadlineAt - Date.now()),
  );

  let current: CheckRef | undefined;
  const exchangeEvent = reporters.some((reporter) => reporter.observesExchanges)
    ? exchangeEvents(redactor)
    : undefined;
  const streak = serverErrorStreakTracker();
  let prepared: PreparedRun | undefined;
  let started = false;
  try {
    prepared = await prepareRun(
      {
        ...settings.target,
        ...(options.profile ? { profile: options.profile } : {}),
        ...(options.invocation ? { invocation: options.invocation } : {}),
        ...(options.env ? { env: options.env } : {}),
        signal: stopRun.signal,
        depth: settings.depth,
        seed: settings.seed,
        ...(settings.concurrency !== undefined ? { concurrency: settings.concurrency } : {}),
        allowProduction: options.allowProduction === true,
        deadlineAt,
        runDir: outDir,
        runId,
        ...(settings.replay ? { replay: settings.replay } : {}),
        // Before anything is provisioned: a wrong base URL stops the run having created nothing.
        preflight: async (session) => {
          if (!stopRun.signal.aborted) await preflight(session, redactor.redact(session.profile.baseUrl));
        },
        notice: (line) => (options.progress ?? rawPrint)(redactor.redact(line)),
      },
      redactor,
      (exchange) => {
        streak.observe(current, exchange.response.status);
        if (exchangeEvent && current) emit(exchangeEvent(current, exchange));
      },
    );
    const { session, target, environment } = prepared;
    const recorded = settings.replay?.target;
    if (recorded) {
      const now = environment.recordedTarget;
      const notice = options.progress ?? rawPrint;
      if (!sameTarget(now, recorded))
        notice(
          redactor.redact(
            `Replaying against ${targetName(now)}, not ${targetName(recorded)} where the failure was recorded (--target was given).`,
          ),
        );
      else if (now.profileDigest !== recorded.profileDigest)
        notice(
          redactor.redact(
            `The profile ${now.target} changed since the failure was recorded: the replay may not reproduce it.`,
          ),
        );
    }
    // A reused --out never mixes two runs: what an earlier one left is moved aside, not lost; a run
    // refused before this point (the preflight) leaves it where it was.
    const setAside = options.outDir !== undefined ? setAsideEarlierRun(outDir) : undefined;
    if (setAside)
      (options.progress ?? rawPrint)(`Files of an earlier run in ${outDir} moved to ${setAside}.`);
    started = true;
    emit({
      type: 'run-start',
      runId,
      target: redactor.redact(target.profile.name),
      targetKind: target.kind,
      seed: session.seed,
      depth: session.depth,
      concurrency: session.concurrency,
      checks: settings.planned.map(refOf),
    });

    const results: CheckResult[] = [];
    const coverage: CoverageDelta[] = [];
    const audits: SchemaAuditFindings[] = [];
    const notRun: RegisteredCheck[] = [];
    for (const check of settings.planned) {
      if (stopRun.signal.aborted) {
        notRun.push(check);
        continue;
      }
      current = refOf(check);
      emit({ type: 'check-start', check: current });
      const run = await runCheck(check, environment, stopRun.signal);
      current = undefined;
      results.push(run.result);
      coverage.push(run.coverage);
      audits.push(run.audit);
      emit({ type: 'check-end', result: run.result });
    }

    const interrupted = options.signal?.aborted === true;
    const deadlineReached = !interrupted && (Date.now() >= deadlineAt || stopRun.signal.aborted);
    const why = interrupted
      ? `the run was interrupted${signalName(options.signal) || ' (Ctrl-C or SIGTERM)'}`
      : `the run deadline (--deadline ${deadlineSeconds} s) passed`;
    const tests: TestOutcome[] = [
      ...results.map(testOutcomeOf),
      ...notRun.map((check) => notRunOutcome({ ...refOf(check), file: `checks/${check.family}.ts` }, why)),
    ];
    // RESP-1 also holds every answer of the run to its schema, unless RESP-1 is left out or skipped;
    // a run stopped before RESP-1 still lists the audit, not run, so every check is reported.
    const respOne = results.find((r) => r.rule === SCHEMA_AUDIT_CHECK.rule);
    const respOneNotRun = notRun.some((check) => check.rule === SCHEMA_AUDIT_CHECK.rule);
    if (settings.withAudit && (respOneNotRun || (respOne && respOne.verdict.state !== 'skipped'))) {
      const verdict = schemaAuditVerdict(audits);
      const audit: CheckResult = {
        ...SCHEMA_AUDIT_CHECK,
        verdict:
          verdict.state !== 'failed' && (interrupted || deadlineReached)
            ? { state: 'incomplete', reason: respOne ? `not finished: ${why}` : `not run: ${why}` }
            : verdict,
        durationMs: 0,
      };
      tests.push(testOutcomeOf(audit));
      emit({ type: 'check-end', result: audit });
    }
    // ASYNC-2 and ASYNC-4 are judged on every acceptance record the run saw; a run cut short
    // proves nothing passed.
    for (const { check, verdictOf } of settings.recordAudits) {
      const verdict = verdictOf(prepared.identifierAudit.findings(), session);
      const audit: CheckResult = {
        ...check,
        verdict:
          (verdict.state === 'passed' || verdict.state === 'inconclusive') && (interrupted || deadlineReached)
            ? { state: 'incomplete', reason: `not finished: ${why}` }
            : verdict,
        durationMs: 0,
      };
      tests.push(testOutcomeOf(audit));
      emit({ type: 'check-end', result: audit });
    }
    const rules = inCatalogueOrder(
      ruleOutcomes(tests),
      catalogue.map((rule) => rule.id),
    );
    const totals = totalsOf(rules);
    // A replay on the target its failure was recorded on, whose check now passes, cannot tell a
    // fix from a failure that needed what other checks did before it: not a pass. Replayed on
    // another target (--target), the check's verdict there stands.
    const replayed = settings.replay;
    const passedAgain =
      replayed !== undefined && tests.some((t) => t.title === replayed.test && t.state === 'passed');
    const notReproduced =
      passedAgain &&
      replayed.target !== undefined &&
      sameTarget(prepared.environment.recordedTarget, replayed.target)
        ? { rule: replayed.rule, seed: replayed.seed }
        : undefined;
    const incompleteReasons = incompleteReasonsOf(
      {
        interrupted,
        interruptedBy: signalOf(options.signal),
        deadlineReached,
        deadlineSeconds,
        replayNotRun: settings.replay !== undefined && results.length === 0,
        replayNotReproduced: notReproduced,
      },
      tests,
    );
    const strict = options.strict === true || target.profile.strict === true;
    const serverErrorStreak = streak.ended();
    const gate = gateOf(strict, rules);
    const outcome: RunOutcome = {
      info: {
        runId,
        suiteVersion: suiteVersion(),
        suiteBuild: suiteBuild(),
        specHash: specHash(),
        target: redactor.redact(target.profile.name),
        targetKind: target.kind,
        seed: session.seed,
        depth: session.depth,
        concurrency: session.concurrency,
        // The profile the run used: with the resources a provision command handed it.
        profile: redactProfile(session.profile, redactor),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        ...(options.shard ? { shard: options.shard } : {}),
      },
      verdict: verdictOf(totals, incompleteReasons, gate),
      incompleteReasons,
      gate,
      rules,
      tests,
      runErrors: [],
      created: prepared.created,
      totals,
      ...(serverErrorStreak ? { serverErrorStreak } : {}),
      coverage: runCoverage(operationCatalogue(loadOpenApiDocument()), coverage),
    };
    if (passedAgain)
      (options.progress ?? rawPrint)(
        redactor.redact(
          `The recorded ${replayed.rule} failure did not reproduce: its case alone, and the check run again from seed ${replayed.seed} with the cases before it, both passed. Either the target changed since, or the failure needed what other checks did before it: run the whole suite with --seed ${replayed.seed} against the same target to see it again.`,
        ),
      );
    emit({ type: 'run-end', outcome });
    return { exitCode: exitCodeOf(outcome), outcome, outDir };
  } finally {
    clearTimeout(deadline);
    options.signal?.removeEventListener('abort', onInterrupt);
    await prepared?.close();
    // A directory the run made for itself goes, unless a report a reporter wrote (and named), a
    // failure's replay file (which its printed replay line names) or the log of what the run
    // created on a real target is in it.
    const createdLog = join(outDir, 'created.jsonl');
    const keepsCreatedLog = prepared?.target.kind === 'real' && existsSync(createdLog);
    const keep = context.written.size > 0 || existsSync(join(outDir, 'replays')) || keepsCreatedLog;
    if (options.outDir === undefined && !keep) rmSync(outDir, { recursive: true, force: true });
    // Nothing else names a temporary directory kept only for that log.
    if (options.outDir === undefined && keepsCreatedLog && context.written.size === 0)
      (options.progress ?? rawPrint)(
        `What this run created on the target is logged in ${createdLog} (kept; pass --out to choose where).`,
      );
    // A run refused before it started leaves no empty --out behind it.
    if (!started && settings.madeOutDir) removeIfEmpty(settings.madeOutDir);
  }
}
