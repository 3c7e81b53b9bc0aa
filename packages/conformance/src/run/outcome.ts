import type { CheckGap } from '../checks/check.js';
import type { FailureReport } from '../checks/failureReport.js';
import type { RuleLevel } from '../ruleCatalogue/index.js';
import type { RunCoverage } from '../specCoverage/coverageReport.js';
import type { TargetProfile } from '../targetProfile/index.js';
import type { ServerErrorStreak } from './serverErrorStreak.js';

export type { CheckResult, CheckVerdict } from '../checks/check.js';

/**
 * How a check ended. `inconclusive`: it ran but saw no evidence either way (never a pass).
 * `incomplete`: it did not finish (deadline, interrupt, no answer from the target, a lost worker).
 */
export type CheckState = 'passed' | 'failed' | 'skipped' | 'inconclusive' | 'incomplete';

/** A run is green only when it is `passed`: nothing failed and every selected check finished. */
export type RunVerdict = 'passed' | 'failed' | 'incomplete';

export interface TestOutcome {
  readonly rule: string;
  readonly title: string;
  readonly file: string;
  readonly state: CheckState;
  readonly durationMs: number;
  readonly skipReason?: string;
  /** Why an inconclusive check saw no evidence, or why an incomplete one did not finish. */
  readonly reason?: string;
  /** What to do so that an inconclusive check can reach a verdict next time. */
  readonly remedy?: string;
  /** Skipped because the profile's `unsupportedRules` declares the rule. */
  readonly declaredUnsupported?: boolean;
  readonly errors: readonly string[];
  readonly failures: readonly FailureReport[];
  /** What the check could not reach on this profile: a pass covers the rest only. */
  readonly gaps?: readonly CheckGap[];
}

export interface RuleOutcome {
  readonly id: string;
  readonly level: RuleLevel;
  readonly title: string;
  readonly state: CheckState;
  readonly tests: readonly TestOutcome[];
  readonly skipReasons: readonly string[];
}

export interface CreatedRecord {
  readonly rule: string;
  readonly kind: string;
  readonly id: string;
  readonly cleanup: string;
}

export interface RunInfo {
  /** Unique per run, written into every file the run leaves, so files of two runs never pass for one. */
  readonly runId: string;
  readonly suiteVersion: string;
  /** A digest of the check modules' code: reports of one version whose checks differ say so. */
  readonly suiteBuild: string;
  readonly specHash: string;
  readonly target: string;
  readonly targetKind: string;
  readonly seed: number;
  readonly depth: number;
  /** Requests in flight at once for independent cases (after the rate-limit cap). */
  readonly concurrency: number;
  readonly profile: TargetProfile;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly shard?: string;
}

/** Strict gate mode: what, beyond failures, keeps the run from passing. */
export interface GateOutcome {
  readonly strict: boolean;
  /** Inconclusive rules, and checks skipped for a reason the profile did not declare. */
  readonly problems: readonly string[];
}

export interface RunOutcome {
  readonly info: RunInfo;
  readonly verdict: RunVerdict;
  /** Why the run is incomplete (deadline, interrupt, lost worker, checks without an answer). */
  readonly incompleteReasons: readonly string[];
  readonly gate: GateOutcome;
  readonly rules: readonly RuleOutcome[];
  readonly tests: readonly TestOutcome[];
  /** Errors outside any check (a property file that failed to load, a crash): the run is incomplete. */
  readonly runErrors: readonly string[];
  readonly created: readonly CreatedRecord[];
  readonly totals: Totals;
  /** The run ended on a long run of 5xx answers over several checks: the target may have gone down. */
  readonly serverErrorStreak?: ServerErrorStreak;
  /** Per operation: documented responses observed, request fields and enum values sent. */
  readonly coverage: RunCoverage;
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
  inconclusive: number;
  incomplete: number;
  mustFailed: number;
  shouldFailed: number;
}
