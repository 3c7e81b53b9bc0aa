import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import { inject, test } from 'vitest';
import { TransportError } from '../http/exchange.js';
import { createTargetHttp, type TargetHttp } from '../http/targetHttp.js';
import { canCheckOn, findRule } from '../ruleCatalogue/index.js';
import { createSecretRedactor, type SecretRedactor } from '../secrets/secretRedactor.js';
import { createOperationRoutes, routeExchanges } from '../spec/operationRoutes.js';
import { createResponseValidator, type ResponseValidator } from '../spec/responseValidator.js';
import { type CoverageRecorder, createCoverageRecorder } from '../specCoverage/coverageRecorder.js';
import { profileSecrets, type TargetProfile } from '../targetProfile/index.js';
import { type PooledFailure, plannedCases, runCasePool } from './casePool.js';
import type { CaseVerdict, CheckVerdictMeta } from './caseVerdict.js';
import { describeExchange, type FailureReport, formatFailure } from './failureReport.js';
import { identityWith } from './identities.js';
import { planResources, type ResourcePlan } from './resourcePlan.js';
import { RuleViolation } from './ruleViolation.js';
import type { RunConfig } from './runConfig.js';
import { createSchemaAudit, SCHEMA_AUDIT_CHECK, type SchemaAudit } from './schemaAudit.js';

export interface Suite {
  readonly config: RunConfig;
  readonly profile: TargetProfile;
  readonly http: TargetHttp;
  readonly plan: ResourcePlan;
  readonly operations: readonly OperationEntry[];
  readonly validator: ResponseValidator;
  /** The run's one redaction source: everything this worker writes goes through it. */
  readonly redactor: SecretRedactor;
  /** What the checks sent and saw of the spec, handed to the report check by check. */
  readonly coverage: CoverageRecorder;
  /** Every answer of every check, held to the spec's response schemas (RESP-1 run-wide). */
  readonly schemaAudit: SchemaAudit;
  /** The token of the broadest identity holding `scope` on the primary workspace. */
  fullToken(scope: string): string;
  operation(operationId: string): OperationEntry;
}

let current: Suite | undefined;

export function getSuite(): Suite {
  if (current) return current;
  const config = inject('conformanceRun');
  const profile = config.profile;
  const validator = createResponseValidator();
  const coverage = createCoverageRecorder();
  const schemaAudit = createSchemaAudit(validator);
  const http = createTargetHttp({
    onExchange: routeExchanges(createOperationRoutes(validator.operations), [coverage, schemaAudit]),
    baseUrl: profile.baseUrl,
    requestTimeoutMs: profile.requestTimeoutMs ?? 10_000,
    deadlineAt: config.deadlineAt,
    maxInFlight: config.concurrency,
    ...(profile.rateLimitPerSecond ? { rateLimitPerSecond: profile.rateLimitPerSecond } : {}),
    ...(profile.maxResponseBytes ? { maxResponseBytes: profile.maxResponseBytes } : {}),
  });
  const suite: Suite = {
    config,
    profile,
    http,
    plan: planResources(profile),
    operations: validator.operations,
    validator,
    redactor: createSecretRedactor([...config.secrets, ...profileSecrets(profile)]),
    coverage,
    schemaAudit,
    fullToken(scope) {
      const identity = identityWith(profile, scope, profile.workspaces.primary);
      if (!identity)
        throw new SkipSignal(
          `profile has no identity holding ${scope} on workspace ${profile.workspaces.primary}`,
        );
      return identity.token;
    },
    operation(operationId) {
      const op = validator.operations.find((o) => o.operationId === operationId);
      if (!op) throw new Error(`Unknown operation ${operationId}`);
      return op;
    },
  };
  current = suite;
  return suite;
}

/** Thrown by helpers that find the profile lacks what a check needs; becomes a skip with the reason. */
export class SkipSignal extends Error {}

/** The check cannot reach a verdict: the run was interrupted, or the target gave no usable answer. */
class CheckIncomplete extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CheckIncomplete';
  }
}

const INTERRUPTED = 'not finished: the run was interrupted';

export interface CheckOptions {
  /** Upper bound on runs for checks that create resources, whatever the depth. */
  readonly maxRuns?: number;
  /** Cases always run first (finite domains are covered whole, not sampled). */
  readonly examples?: readonly unknown[];
  /**
   * On a target that obeys the document, no case's verdict depends on which cases ran before it:
   * refused probes, reads, and repeats of one request whose state answers (404/409) the check
   * accepts. Such cases may be sent `concurrency` at a time. Never for checks whose cases change
   * state they later read or rely on order (creates, deletes, idempotency replays, a NAT rule
   * read back or restored).
   */
  readonly independent?: boolean;
  /**
   * Puts back what the cases share before a concurrent failure is looked for again one case at
   * a time, so the sequential run blames the case that breaks the rule, not the state it left.
   */
  readonly beforeRerun?: () => Promise<void>;
}

export interface RuleTestContext {
  readonly suite: Suite;
  readonly rule: string;
  skip(reason: string): never;
  /** Ends the check without a verdict: it saw nothing that could show the rule kept or broken. */
  inconclusive(reason: string): never;
  /**
   * Runs a fast-check property; on failure reports rule, seed, path, shrunk request/response and
   * writes a replay file. Each case says whether it observed what the rule checks; a property
   * none of whose cases did is inconclusive.
   */
  check<T>(
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<CaseVerdict>,
    options?: CheckOptions,
  ): Promise<void>;
  /** Records what the run created, and whether it could be cleaned up. */
  recordCreated(kind: string, id: string, cleanup: string): void;
  requireMutations(): void;
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

class InconclusiveSignal extends Error {}

/**
 * Declares one check of one rule. The title is prefixed with the rule ID (traceability), and the
 * check is skipped with its reason when the target cannot check the rule or the profile opts out.
 */
export function ruleTest(
  ruleId: string,
  title: string,
  body: (t: RuleTestContext) => Promise<void>,
  timeoutMs = 120_000,
): void {
  const rule = findRule(ruleId);
  if (!rule) throw new Error(`ruleTest: unknown rule ${ruleId}; add it to src/ruleCatalogue/rules.ts`);
  const fullTitle = `${ruleId} ${title}`;
  test(
    fullTitle,
    async (ctx) => {
      const suite = getSuite();
      const { config, profile } = suite;
      const skip = (reason: string): never => {
        // Only skips the suite decides count as skips; vitest's own (a cancelled run) are "not run".
        (ctx.task.meta as Record<string, unknown>).conformanceSkipped = true;
        ctx.skip(reason);
        throw new Error('unreachable');
      };
      if (!canCheckOn(rule, config.targetKind))
        skip(
          `${config.targetKind} cannot check this rule: ${rule.whyNotPrism ?? 'not supported by this target'}`,
        );
      const unsupported = profile.unsupportedRules?.find((u) => u.id === ruleId);
      if (unsupported) {
        (ctx.task.meta as Record<string, unknown>).conformanceDeclaredSkip = true;
        skip(`target does not claim this rule: ${unsupported.reason}`);
      }
      const failures: FailureReport[] = [];
      const { redactor } = suite;
      const meta = ctx.task.meta as Record<string, unknown>;
      const setVerdict = (verdict: CheckVerdictMeta): void => {
        meta.conformanceVerdict = { state: verdict.state, reason: redactor.redact(verdict.reason) };
      };
      let checksRun = 0;
      const withoutEvidence: string[] = [];
      // Coverage is told check by check: whatever came before this check is not its own.
      suite.coverage.drain();
      suite.schemaAudit.drain();
      const drainAudit = (): void => {
        const audit = suite.schemaAudit.drain();
        const violations: FailureReport[] = audit.violations.map((violation) => ({
          rule: 'RESP-1',
          test: SCHEMA_AUDIT_CHECK.title,
          seed: config.seed,
          path: undefined,
          counterexample: undefined,
          message: redactor.redact(
            `${violation.operationId} answered ${violation.exchange.response.status}: ${violation.problem} (seen during "${fullTitle}"; reproduce with --rules ${ruleId} --seed ${config.seed})`,
          ),
          ...describeExchange(violation.exchange, redactor),
        }));
        meta.conformanceSchemaAudit = { validatedSuccesses: audit.validatedSuccesses, violations };
      };
      const t: RuleTestContext = {
        suite,
        rule: ruleId,
        skip,
        inconclusive(reason) {
          throw new InconclusiveSignal(reason);
        },
        requireMutations() {
          if (profile.mutations !== true) skip('profile does not allow mutations');
        },
        recordCreated(kind, id, cleanup) {
          if (config.targetKind === 'prism') return; // Prism keeps no state: nothing was created.
          mkdirSync(config.runDir, { recursive: true });
          appendFileSync(
            join(config.runDir, 'created.jsonl'),
            `${redactor.redact(JSON.stringify({ rule: ruleId, kind, id, cleanup }))}\n`,
          );
        },
        async check(arbitrary, predicate, options = {}) {
          checksRun++;
          const replay = config.replay?.testTitle === fullTitle ? config.replay : undefined;
          const examples = (options.examples ?? []).map((example) => [example] as [T0]);
          const numRuns =
            Math.max(1, Math.min(config.depth, options.maxRuns ?? Number.POSITIVE_INFINITY)) +
            examples.length;
          let transportFailure: TransportError | undefined;
          let observedCases = 0;
          const notApplicableWhys: string[] = [];
          const guarded = async (value: T0): Promise<void> => {
            // Interrupted (Ctrl-C): stop sending at once, so the check's own cleanup (e.g. putting
            // a NAT rule back) runs before the run is torn down.
            if (ctx.signal.aborted) throw new CheckIncomplete(INTERRUPTED);
            // Once the target gave no answer, shrinking would only wait for more timeouts.
            if (transportFailure) throw transportFailure;
            try {
              const verdict = await predicate(value as never);
              if (verdict.observed) observedCases++;
              else notApplicableWhys.push(verdict.why);
            } catch (error) {
              if (error instanceof TransportError && !transportFailure) {
                transportFailure = error;
                // Concurrent siblings would only wait out their own timeouts: the check is incomplete.
                suite.http.cancelInFlight();
              }
              throw error;
            }
          };
          type T0 = unknown;
          const seed = replay?.seed ?? config.seed;
          const finished = (): void => {
            if (ctx.signal.aborted) throw new CheckIncomplete(INTERRUPTED);
            // No answer is no verdict: the rule was neither kept nor broken where nothing came back.
            if (transportFailure) throw new CheckIncomplete(`not finished: ${transportFailure.message}`);
          };
          // Independent cases go out `concurrency` at a time: the same planned cases, so the same
          // requests. A failure is then found again sequentially, which shrinks it and gives a
          // replayable path; the pooled failure stands even if the sequential run does not see it.
          let pooled: PooledFailure<T0> | undefined;
          const lanes = options.independent && !replay ? config.concurrency : 1;
          if (lanes > 1) {
            const cases = plannedCases(arbitrary as fc.Arbitrary<T0>, { numRuns, examples, seed });
            const pooledCase = async (value: T0): Promise<void> => {
              try {
                await guarded(value);
              } catch (error) {
                // fc.pre makes fast-check draw a replacement case, which the plan cannot know.
                if (fc.PreconditionFailure.isFailure(error))
                  throw new Error(
                    `${fullTitle}: fc.pre is not allowed in an independent check; generate only the cases it keeps`,
                  );
                throw error;
              }
            };
            pooled = await runCasePool(
              cases,
              lanes,
              pooledCase,
              () => ctx.signal.aborted || !!transportFailure,
            );
            finished();
            if (!pooled) {
              if (observedCases === 0) withoutEvidence.push(summariseWhy(notApplicableWhys));
              return;
            }
            observedCases = 0;
            notApplicableWhys.length = 0;
            // The pooled failure stands whatever happens here: a failed reset only blurs the blame.
            await options.beforeRerun?.().catch(() => undefined);
            suite.http.drain();
          }
          const details = await fc.check(fc.asyncProperty(arbitrary as fc.Arbitrary<T0>, guarded), {
            numRuns,
            examples,
            seed,
            ...(replay ? { path: replay.path, endOnFailure: true } : {}),
          });
          // After a pooled failure the rerun only refines the report: an interruption or a lost
          // answer during it leaves the failure that was already seen.
          if (!pooled) finished();
          let rerun = details.failed && !transportFailure && !ctx.signal.aborted;
          if (!details.failed && !pooled) {
            if (observedCases === 0) withoutEvidence.push(summariseWhy(notApplicableWhys));
            return;
          }
          suite.http.drain();
          let error: unknown = rerun ? details.errorInstance : pooled?.error;
          if (rerun && details.counterexample) {
            try {
              await predicate(details.counterexample[0] as never);
            } catch (reproduced) {
              error = reproduced;
            }
            if (error instanceof TransportError && pooled) {
              rerun = false;
              error = pooled.error;
            }
          }
          if (error instanceof TransportError) throw new CheckIncomplete(`not finished: ${error.message}`);
          const counterexample = rerun ? details.counterexample?.[0] : pooled?.value;
          const exchanges = suite.http.drain();
          const exchange =
            error instanceof RuleViolation && error.exchange ? error.exchange : exchanges.at(-1);
          const cause = redactor.redact(error instanceof Error ? error.message : String(error));
          const message = rerun
            ? cause
            : `${cause} (case ${(pooled?.index ?? 0) + 1} of ${numRuns}, with ${lanes} cases in flight; re-run one at a time it ${details.failed ? 'could not finish' : 'passed, so the answer depends on what else the target was doing'})`;
          const report: FailureReport = {
            rule: ruleId,
            test: fullTitle,
            seed: details.seed,
            // A fast-check path of one index replays that planned case alone, unshrunk.
            path: rerun ? (details.counterexamplePath ?? undefined) : String(pooled?.index ?? 0),
            counterexample:
              (rerun ? details.counterexample : pooled) !== undefined
                ? safeStringify(counterexample, redactor)
                : undefined,
            message,
            ...describeExchange(exchange, redactor),
          };
          const replayFile = join(config.runDir, 'replays', `${ruleId}-${failures.length + Date.now()}.json`);
          mkdirSync(join(config.runDir, 'replays'), { recursive: true });
          const withFile = { ...report, replayFile };
          writeFileSync(
            replayFile,
            redactor.redact(
              `${JSON.stringify({ kind: 'conformance-replay', target: profile.name, depth: config.depth, ...withFile }, null, 2)}\n`,
            ),
          );
          failures.push(withFile);
          meta.conformanceFailures = failures;
          throw new Error(redactor.redact(formatFailure(withFile)));
        },
      };
      try {
        await body(t);
      } catch (error) {
        meta.conformanceCoverage = suite.coverage.drain();
        drainAudit();
        if (error instanceof SkipSignal) skip(error.message);
        if (error instanceof InconclusiveSignal) {
          setVerdict({ state: 'inconclusive', reason: error.message });
          return;
        }
        // A request outside t.check (a baseline, a first create) that got no answer.
        if (error instanceof TransportError) {
          setVerdict({ state: 'incomplete', reason: `not finished: ${error.message}` });
          return;
        }
        if (error instanceof CheckIncomplete) {
          setVerdict({ state: 'incomplete', reason: error.message });
          return;
        }
        if (error instanceof Error) error.message = redactor.redact(error.message);
        throw error;
      }
      meta.conformanceCoverage = suite.coverage.drain();
      drainAudit();
      if (checksRun === 0) setVerdict({ state: 'inconclusive', reason: 'the check ran no case' });
      else if (withoutEvidence.length > 0)
        setVerdict({ state: 'inconclusive', reason: `no evidence: ${withoutEvidence.join('; ')}` });
    },
    timeoutMs,
  );
}
