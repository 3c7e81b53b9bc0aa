import type { Check, CheckContext, CheckGap, CheckResult, CheckVerdict } from '../checks/check.js';
import { emptyUpdateNotValidHere } from '../checks/emptyNatUpdate.js';
import { describeExchange, type FailureReport, formatFailure } from '../checks/failureReport.js';
import { RuleViolation } from '../checks/ruleViolation.js';
import type { SchemaAudit, SchemaAuditFindings } from '../checks/schemaAudit.js';
import { SCHEMA_AUDIT_CHECK } from '../checks/schemaAudit.js';
import { skipBeforeRun } from '../checks/skipBeforeRun.js';
import type { Session } from '../session/session.js';
import { InconclusiveSignal, SkipSignal } from '../session/skipSignal.js';
import type { CoverageDelta } from '../specCoverage/coverageRecorder.js';
import { ResponseTooLargeError, TransportError } from '../transport/exchange.js';
import type { CreatedRecord } from './outcome.js';
import {
  CheckFailure,
  CheckIncomplete,
  CheckInconclusive,
  isSuiteError,
  runProperty,
  suiteErrorReason,
} from './propertyRunner.js';
import { type RecordedTarget, type ReplayCase, writeReplayFile } from './replayFile.js';
import { StopReason, stopMessage } from './stopReason.js';

/** What the engine lends every check of a run. */
export interface CheckRunEnvironment {
  readonly session: Session;
  readonly schemaAudit: SchemaAudit;
  /** Directory for replay files. */
  readonly runDir: string;
  /** Written into replay files: which run saw the failure. */
  readonly runId?: string;
  /** The target as the replay file records it. */
  readonly recordedTarget: RecordedTarget;
  /** The command that replays a replay file, as the user runs the CLI. */
  replayCommand(file: string): string;
  readonly replay?: ReplayCase;
  readonly recordCreated: (record: CreatedRecord) => void;
}

/** A check's typed result and what its traffic showed of the spec (coverage, RESP-1's audit). */
export interface CheckRun {
  readonly result: CheckResult;
  readonly coverage: CoverageDelta;
  readonly audit: SchemaAuditFindings;
}

/** How long a stopped check may take to put back what it changed before it is left behind. */
const STOP_GRACE_MS = 2_000;

/** The audit is part of a run only with RESP-1 selected: a reproduction names both rules. */
const reproducingRules = (rule: string): string =>
  rule === SCHEMA_AUDIT_CHECK.rule ? rule : `${rule},${SCHEMA_AUDIT_CHECK.rule}`;

/**
 * Runs one check to a typed result. The check gets a session whose transport sends nothing once
 * `signal` (the run's) aborts or the check outlives its timeout; every way it can end maps to one
 * state: a property's counterexample → failed, no evidence → inconclusive, no answer or a stop →
 * incomplete, a profile without what it needs → skipped.
 */
export async function runCheck(
  check: Check & { readonly family?: string },
  environment: CheckRunEnvironment,
  runSignal: AbortSignal,
): Promise<CheckRun> {
  const started = performance.now();
  const { session: runSession, schemaAudit } = environment;
  const { redactor } = runSession;
  // Whatever came before this check is not its own.
  runSession.coverage.drain();
  schemaAudit.drain();
  const failures: FailureReport[] = [];
  const controller = new AbortController();
  const stop = (): void => controller.abort(runSignal.reason);
  runSignal.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(
    () =>
      controller.abort(
        new StopReason('timeout', `not finished: the check ran longer than ${check.timeoutMs} ms`),
      ),
    check.timeoutMs,
  );
  if (runSignal.aborted) stop();
  const signal = controller.signal;
  // A stopped check gets STOP_GRACE_MS to put back what it changed (its sends still go out);
  // after that, or once it ends, its transport sends nothing more.
  const abandoned = new AbortController();
  const session: Session = { ...runSession, http: runSession.http.scoped(abandoned.signal) };
  let propertiesRun = 0;
  const withoutEvidence: string[] = [];
  const gaps: CheckGap[] = [];

  const t: CheckContext = {
    session,
    rule: check.rule,
    signal,
    skip(reason) {
      throw new SkipSignal(reason);
    },
    inconclusive(reason, remedy) {
      throw new InconclusiveSignal(reason, remedy);
    },
    requireMutations() {
      if (session.profile.mutations !== true) throw new SkipSignal('profile does not allow mutations');
    },
    notChecked(what, remedy) {
      gaps.push({ what: redactor.redact(what), remedy: redactor.redact(remedy) });
    },
    recordCreated(kind, id, cleanup) {
      if (session.targetKind === 'prism') return; // Prism keeps no state: nothing was created.
      environment.recordCreated({
        rule: check.rule,
        kind: redactor.redact(kind),
        id: shownId(id, (text) => redactor.redact(text)),
        cleanup: redactor.redact(cleanup),
      });
    },
    async check(arbitrary, predicate, options) {
      propertiesRun++;
      const evidence = await runProperty(
        {
          session,
          check,
          signal,
          redactor,
          ...(environment.replay ? { replay: environment.replay } : {}),
          failed: (report) => {
            const replayFile = writeReplayFile(
              environment.runDir,
              report,
              {
                target: environment.recordedTarget,
                depth: session.depth,
                ...(environment.runId ? { runId: environment.runId } : {}),
              },
              redactor,
            );
            const withFile = { ...report, replayFile, replayCommand: environment.replayCommand(replayFile) };
            failures.push(withFile);
            return withFile;
          },
        },
        arbitrary,
        predicate,
        options,
      );
      if (!evidence.observed) withoutEvidence.push(evidence.why);
    },
  };

  const verdictOfError = (error: unknown): CheckVerdict => {
    if (error instanceof SkipSignal)
      return { state: 'skipped', reason: redactor.redact(error.message), declared: false };
    if (error instanceof InconclusiveSignal)
      return {
        state: 'inconclusive',
        reason: redactor.redact(error.message),
        ...(error.remedy ? { remedy: redactor.redact(error.remedy) } : {}),
      };
    if (error instanceof CheckFailure)
      return { state: 'failed', failures, errors: [redactor.redact(formatFailure(error.report))] };
    // Stopped (interrupt, deadline, the check's timeout): whatever it was doing is no verdict.
    if (signal.aborted && !(error instanceof CheckFailure))
      return { state: 'incomplete', reason: stopMessage(signal) };
    if (error instanceof CheckIncomplete)
      return { state: 'incomplete', reason: redactor.redact(error.message) };
    // The suite's own limits (a body over maxResponseBytes) are never the server's failure.
    if (error instanceof CheckInconclusive || error instanceof ResponseTooLargeError)
      return {
        state: 'inconclusive',
        reason: redactor.redact(
          error instanceof CheckInconclusive ? error.message : `no verdict: ${error.message}`,
        ),
        remedy: redactor.redact(error.remedy),
      };
    // A request outside a property (a baseline, a first create) that got no answer.
    if (error instanceof TransportError)
      return { state: 'incomplete', reason: redactor.redact(`not finished: ${error.message}`) };
    // The suite's own error (a TypeError, a bug) says nothing about the target.
    if (isSuiteError(error)) return { state: 'incomplete', reason: redactor.redact(suiteErrorReason(error)) };
    // A violation seen outside a property fails the check.
    return {
      state: 'failed',
      failures,
      errors: [redactor.redact(error instanceof Error ? error.message : String(error))],
    };
  };

  // A violation outside a property, seen on an empty NAT rule update the target refuses as invalid
  // (a check's first read of the rule): no evidence, as it is inside a property.
  const emptyUpdateVerdict = async (error: unknown): Promise<CheckVerdict | undefined> => {
    const why =
      error instanceof RuleViolation ? await emptyUpdateNotValidHere(session, error.exchange) : undefined;
    return why ? { state: 'inconclusive', reason: redactor.redact(`no evidence: ${why}`) } : undefined;
  };

  let verdict: CheckVerdict | undefined = skipBeforeRun(check.rule, session);
  if (!verdict) {
    const body = check.run(t).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    // One that takes longer than the grace is left behind and reported as not finished.
    const leftBehind = new Promise<'abandoned'>((resolve) => {
      const leave = (): void => {
        setTimeout(() => {
          abandoned.abort();
          resolve('abandoned');
        }, STOP_GRACE_MS).unref();
      };
      if (signal.aborted) leave();
      else signal.addEventListener('abort', leave, { once: true });
    });
    const ended = await Promise.race([body, leftBehind]);
    if (ended === 'abandoned') verdict = { state: 'incomplete', reason: stopMessage(signal) };
    else if (ended) verdict = (await emptyUpdateVerdict(ended.error)) ?? verdictOfError(ended.error);
    else if (propertiesRun === 0) verdict = { state: 'inconclusive', reason: 'the check ran no case' };
    else if (withoutEvidence.length > 0)
      verdict = {
        state: 'inconclusive',
        reason: redactor.redact(`no evidence: ${withoutEvidence.join('; ')}`),
      };
    else verdict = { state: 'passed' };
    // Told to stop while it ran, a check that still returned may have skipped what it had left to
    // send: only a failure it saw stands, never a pass.
    if (signal.aborted && (verdict.state === 'passed' || verdict.state === 'inconclusive'))
      verdict = { state: 'incomplete', reason: stopMessage(signal) };
  }
  clearTimeout(timer);
  runSignal.removeEventListener('abort', stop);
  abandoned.abort();

  const coverage = runSession.coverage.drain();
  const audit = schemaAudit.drain();
  return {
    result: {
      rule: check.rule,
      title: check.title,
      file: check.family ? `checks/${check.family}.ts` : '(a check outside the registry)',
      verdict,
      durationMs: performance.now() - started,
      ...(gaps.length > 0 && verdict.state !== 'skipped' ? { gaps } : {}),
    },
    coverage,
    audit: {
      validatedSuccesses: audit.validatedSuccesses,
      violations: audit.violations.map((violation) => {
        const alike = `${violation.operationId} answered ${violation.exchange.response.status}: ${violation.problem}`;
        return {
          alike,
          during: check.title,
          report: {
            rule: 'RESP-1',
            test: SCHEMA_AUDIT_CHECK.title,
            seed: session.seed,
            path: undefined,
            counterexample: undefined,
            message: redactor.redact(
              `${alike} (seen during "${check.title}"; reproduce with --rules ${reproducingRules(check.rule)} --seed ${session.seed})`,
            ),
            ...describeExchange(violation.exchange, redactor),
          },
        };
      }),
    },
  };
}

/** The longest id the report shows whole; a target's 200,000-character id is cut. */
const MAX_SHOWN_ID = 200;

/**
 * An id as the report shows it: the target may have answered none, or one of any type or length.
 * Redacted before it is cut, so no part of a token survives the cut.
 */
function shownId(id: unknown, redact: (text: string) => string): string {
  const text =
    typeof id === 'string' && id !== ''
      ? id
      : `(no id: the target answered ${id === undefined ? 'none' : JSON.stringify(id)})`;
  const shown = redact(text);
  return shown.length > MAX_SHOWN_ID
    ? `${shown.slice(0, MAX_SHOWN_ID)}… (${shown.length} characters)`
    : shown;
}
