import fc from 'fast-check';
import type { CaseVerdict } from '../checks/caseVerdict.js';
import type { PropertyOptions } from '../checks/check.js';
import { emptyUpdateNotValidHere } from '../checks/emptyNatUpdate.js';
import { describeExchange, type FailureReport } from '../checks/failureReport.js';
import { RuleViolation } from '../checks/ruleViolation.js';
import type { SecretRedactor } from '../secrets/secretRedactor.js';
import type { Session } from '../session/session.js';
import { InconclusiveSignal, SkipSignal } from '../session/skipSignal.js';
import { ResponseTooLargeError, TransportError } from '../transport/exchange.js';
import { type PooledFailure, plannedCases, runCasePool } from './casePool.js';
import type { ReplayCase } from './replayFile.js';
import { stopMessage } from './stopReason.js';

/** The check cannot reach a verdict: it was stopped, or the target gave no usable answer. */
export class CheckIncomplete extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CheckIncomplete';
  }
}

/** The check hit one of the suite's own limits (a body over maxResponseBytes): no verdict either way. */
export class CheckInconclusive extends Error {
  constructor(
    reason: string,
    readonly remedy: string,
  ) {
    super(reason);
    this.name = 'CheckInconclusive';
  }
}

/** A property found a counterexample: the report (redacted) ends the check as failed. */
export class CheckFailure extends Error {
  constructor(readonly report: FailureReport) {
    super(report.message);
    this.name = 'CheckFailure';
  }
}

/**
 * Only a RuleViolation is the target's failure; the other errors a check may throw are the run's
 * own signals. Anything else (a TypeError reading the suite's own plan, a bug) says nothing about
 * the target: the check ends incomplete naming it, never failed and never passed.
 */
export function isSuiteError(error: unknown): boolean {
  return !(
    error instanceof RuleViolation ||
    error instanceof CheckFailure ||
    error instanceof CheckIncomplete ||
    error instanceof CheckInconclusive ||
    error instanceof TransportError ||
    error instanceof ResponseTooLargeError ||
    error instanceof SkipSignal ||
    error instanceof InconclusiveSignal ||
    fc.PreconditionFailure.isFailure(error)
  );
}

/** What a report says of a suite error: no verdict, and that it is the suite's bug to report. */
export function suiteErrorReason(error: unknown): string {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `no verdict: the suite's own code failed (${what}), which says nothing about the target; please report it to the suite's maintainers with this run's JSON report`;
}

export interface PropertyRun {
  readonly session: Session;
  readonly check: { readonly rule: string; readonly title: string };
  readonly signal: AbortSignal;
  readonly redactor: SecretRedactor;
  /** Set when this run replays one recorded case of this check. */
  readonly replay?: ReplayCase;
  /** Turns a failure into the report the check ends with (the replay file is written there). */
  readonly failed: (report: FailureReport) => FailureReport;
}

/** What the property saw when it passed: whether any case observed the rule, and what the others said. */
export interface PropertyEvidence {
  readonly observed: boolean;
  readonly why: string;
}

/** Operations print as their operationId, so a counterexample reads like the request it stands for. */
function readable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(readable);
  if (value && typeof value === 'object') {
    if ('operationId' in value && 'method' in value && 'path' in value)
      return `operation:${String((value as { operationId: unknown }).operationId)}`;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, readable(item)]));
  }
  return value;
}

function safeStringify(value: unknown, redactor: SecretRedactor): string {
  let text: string;
  try {
    text = fc.stringify(readable(value));
  } catch {
    text = String(value);
  }
  return redactor.redact(text);
}

/** What not-applicable cases said, deduplicated, so an inconclusive verdict tells what was seen. */
function summariseWhy(whys: readonly string[]): string {
  const distinct = [...new Set(whys)];
  const shown = distinct.slice(0, 3).join('; ');
  return distinct.length > 3 ? `${shown}; and ${distinct.length - 3} more` : shown || 'no case ran';
}

/**
 * Runs one fast-check property of a check against the target. Independent cases go out
 * `concurrency` at a time (the same planned cases, so the same requests); a failure is then found
 * again one case at a time, which shrinks it and gives a replayable path, and the pooled failure
 * stands even when the sequential run does not see it. Resolves with the evidence when the
 * property holds; throws CheckFailure, CheckIncomplete (stopped, or no answer) otherwise.
 */
export async function runProperty<T>(
  run: PropertyRun,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<CaseVerdict>,
  options: PropertyOptions = {},
): Promise<PropertyEvidence> {
  const { session, signal, redactor } = run;
  const http = session.http;
  const replay = run.replay?.test === run.check.title ? run.replay : undefined;
  const examples = (options.examples ?? []).map((example) => [example] as [T]);
  const numRuns =
    options.exhaustive && examples.length > 0
      ? examples.length
      : Math.max(1, Math.min(session.depth, options.maxRuns ?? Number.POSITIVE_INFINITY)) + examples.length;
  let transportFailure: TransportError | undefined;
  let tooLarge: ResponseTooLargeError | undefined;
  let observedCases = 0;
  // The first suite error seen: it makes a property that found no violation incomplete.
  let suiteError: unknown;
  const notApplicableWhys: string[] = [];
  const guarded = async (value: T): Promise<void> => {
    // Stopped: send nothing more, so the check's own cleanup (putting a NAT rule back) runs now.
    if (signal.aborted) throw new CheckIncomplete(stopMessage(signal));
    // Once the target gave no answer, shrinking would only wait for more timeouts.
    if (transportFailure) throw transportFailure;
    if (tooLarge) throw tooLarge;
    try {
      const verdict = await predicate(value);
      if (verdict.observed) observedCases++;
      else notApplicableWhys.push(verdict.why);
    } catch (error) {
      if (error instanceof ResponseTooLargeError) tooLarge ??= error;
      if (error instanceof TransportError && !transportFailure) {
        transportFailure = error;
        // Concurrent siblings would only wait out their own timeouts: the check is incomplete.
        http.cancelInFlight();
      }
      // A request built on an update the target refuses as invalid was never an otherwise valid one.
      if (error instanceof RuleViolation) {
        const why = await emptyUpdateNotValidHere(session, error.exchange);
        if (why) {
          notApplicableWhys.push(why);
          return;
        }
      }
      // Not a failure to fast-check, so shrinking follows the target's violations, never a crash.
      if (isSuiteError(error)) {
        suiteError ??= error;
        return;
      }
      throw error;
    }
  };
  const seed = replay?.seed ?? session.seed;
  const finished = (): void => {
    if (signal.aborted) throw new CheckIncomplete(stopMessage(signal));
    // No answer is no verdict: the rule was neither kept nor broken where nothing came back.
    if (transportFailure) throw new CheckIncomplete(`not finished: ${transportFailure.message}`);
    // Nor is an answer the suite would not read whole.
    if (tooLarge) throw new CheckInconclusive(`no verdict: ${tooLarge.message}`, tooLarge.remedy);
  };
  // What a property that found no violation ends with: incomplete if the suite itself failed.
  const evidence = (): PropertyEvidence => {
    if (suiteError !== undefined) throw new CheckIncomplete(suiteErrorReason(suiteError));
    return { observed: observedCases > 0, why: summariseWhy(notApplicableWhys) };
  };

  let pooled: PooledFailure<T> | undefined;
  const lanes = options.independent && !replay ? session.concurrency : 1;
  if (lanes > 1) {
    const cases = plannedCases(arbitrary, { numRuns, examples, seed });
    const pooledCase = async (value: T): Promise<void> => {
      try {
        await guarded(value);
      } catch (error) {
        // fc.pre makes fast-check draw a replacement case, which the plan cannot know.
        if (fc.PreconditionFailure.isFailure(error))
          throw new Error(
            `${run.check.title}: fc.pre is not allowed in an independent check; generate only the cases it keeps`,
          );
        throw error;
      }
    };
    pooled = await runCasePool(cases, lanes, pooledCase, () => signal.aborted || !!transportFailure);
    finished();
    if (!pooled) return evidence();
    observedCases = 0;
    notApplicableWhys.length = 0;
    // The pooled failure stands whatever happens here: a failed reset only blurs the blame.
    await options.beforeRerun?.().catch(() => undefined);
    http.drain();
  }
  // Replaying, fast-check would go on past a passing recorded case to further values of its own
  // choosing: the recorded case is the only one sent.
  let recordedCaseSent = false;
  const recordedCaseOnly = async (value: T): Promise<void> => {
    if (recordedCaseSent) return;
    recordedCaseSent = true;
    await guarded(value);
  };
  let details = await fc.check(fc.asyncProperty(arbitrary, replay ? recordedCaseOnly : guarded), {
    numRuns,
    examples,
    seed,
    ...(replay ? { path: replay.path, endOnFailure: true } : {}),
  });
  // A recorded case can fail only on the state the cases before it left (a field an earlier
  // update changed): alone on a fresh target it passes. A replay that stopped there would call
  // the failure gone, so the property runs again from its seed, those cases included.
  const replayedAlonePassed = !!replay && !details.failed && !transportFailure && !signal.aborted;
  if (replayedAlonePassed)
    details = await fc.check(fc.asyncProperty(arbitrary, guarded), { numRuns, examples, seed });
  // After a pooled failure the rerun only refines the report: an interruption or a lost answer
  // during it leaves the failure that was already seen.
  if (!pooled) finished();
  let rerun = details.failed && !transportFailure && !signal.aborted;
  if (!details.failed && !pooled) return evidence();
  http.drain();
  let error: unknown = rerun ? details.errorInstance : pooled?.error;
  if (rerun && details.counterexample) {
    try {
      await predicate(details.counterexample[0]);
    } catch (reproduced) {
      // The case failed the target's rule once; a crash of the suite's own on the re-run does not replace that.
      if (!isSuiteError(reproduced)) error = reproduced;
    }
    if (error instanceof TransportError && pooled) {
      rerun = false;
      error = pooled.error;
    }
  }
  if (error instanceof TransportError) throw new CheckIncomplete(`not finished: ${error.message}`);
  if (error instanceof CheckIncomplete) throw error;
  if (error instanceof ResponseTooLargeError || tooLarge) {
    const limit = error instanceof ResponseTooLargeError ? error : (tooLarge as ResponseTooLargeError);
    throw new CheckInconclusive(`no verdict: ${limit.message}`, limit.remedy);
  }
  const counterexample = rerun ? details.counterexample?.[0] : pooled?.value;
  const exchanges = http.drain();
  const exchange = error instanceof RuleViolation && error.exchange ? error.exchange : exchanges.at(-1);
  const cause = redactor.redact(error instanceof Error ? error.message : String(error));
  const message = rerun
    ? replayedAlonePassed
      ? `${cause} (the recorded case alone passed; run again from seed ${seed} with the cases before it, this case failed: it depends on the state those cases left)`
      : cause
    : `${cause} (case ${(pooled?.index ?? 0) + 1} of ${numRuns}, with ${lanes} cases in flight; re-run one at a time it ${details.failed ? 'could not finish' : 'passed: either the answer depends on what else the target was doing, or the first attempt changed what the case needs (a resource it released, a record it moved)'})`;
  throw new CheckFailure(
    run.failed({
      rule: run.check.rule,
      test: run.check.title,
      seed: details.seed,
      // A fast-check path of one index replays that planned case alone, unshrunk.
      path: rerun ? (details.counterexamplePath ?? undefined) : String(pooled?.index ?? 0),
      counterexample:
        (rerun ? details.counterexample : pooled) !== undefined
          ? safeStringify(counterexample, redactor)
          : undefined,
      message,
      ...describeExchange(exchange, redactor),
    }),
  );
}
