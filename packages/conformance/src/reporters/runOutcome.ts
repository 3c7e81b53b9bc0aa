import type { TestModule } from 'vitest/node';
import { findRule, type RuleLevel, ruleIdOfTitle } from '../ruleCatalogue/index.js';
import type { CoverageDelta } from '../specCoverage/coverageRecorder.js';
import type { RunCoverage } from '../specCoverage/coverageReport.js';
import type { CheckVerdictMeta } from '../suite/caseVerdict.js';
import { type FailureReport, formatFailure } from '../suite/failureReport.js';
import { SCHEMA_AUDIT_CHECK } from '../suite/schemaAudit.js';
import type { TargetProfile } from '../targetProfile/index.js';

/**
 * How a check ended. `inconclusive`: it ran but saw no evidence either way (never a pass).
 * `incomplete`: it did not finish (deadline, interrupt, no answer from the target, a lost worker).
 */
export type CheckState = 'passed' | 'failed' | 'skipped' | 'inconclusive' | 'incomplete';

/** A run is green only when it is `passed`: nothing failed and every selected check finished. */
export type RunVerdict = 'passed' | 'failed' | 'incomplete';

export const EXIT_CODES = {
  passed: 0,
  /** A MUST rule failed, or the strict gate refused the run. */
  failed: 1,
  /** Bad options, profile or input; nothing was sent. */
  badInput: 2,
  /** The run did not finish: deadline, unreachable target, a lost worker. */
  incomplete: 3,
} as const;

export interface TestOutcome {
  readonly rule: string;
  readonly title: string;
  readonly file: string;
  readonly state: CheckState;
  readonly durationMs: number;
  readonly skipReason?: string;
  /** Why an inconclusive check saw no evidence, or why an incomplete one did not finish. */
  readonly reason?: string;
  /** Skipped because the profile's `unsupportedRules` declares the rule. */
  readonly declaredUnsupported?: boolean;
  readonly errors: readonly string[];
  readonly failures: readonly FailureReport[];
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
  readonly suiteVersion: string;
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

const TIMED_OUT = /^Test timed out in (\d+)ms/;

/** The checks vitest reported, each with its state; `notRunReason` names what stopped the run, if anything did. */
export function testOutcomes(
  modules: readonly TestModule[],
  redact: (text: string) => string,
  notRunReason: string,
): { tests: TestOutcome[]; runErrors: string[]; coverage: CoverageDelta[]; schemaAudits: SchemaAuditMeta[] } {
  const tests: TestOutcome[] = [];
  const runErrors: string[] = [];
  const coverage: CoverageDelta[] = [];
  const schemaAudits: SchemaAuditMeta[] = [];
  for (const module of modules) {
    for (const error of module.errors())
      runErrors.push(redact(`${module.relativeModuleId}: ${error.message}`));
    for (const testCase of module.children.allTests()) {
      const result = testCase.result();
      const rule = ruleIdOfTitle(testCase.name) ?? '(no rule)';
      const meta = testCase.meta() as {
        conformanceFailures?: FailureReport[];
        conformanceVerdict?: CheckVerdictMeta;
        conformanceDeclaredSkip?: boolean;
        conformanceSkipped?: boolean;
        conformanceCoverage?: CoverageDelta;
        conformanceSchemaAudit?: SchemaAuditMeta;
      };
      if (meta.conformanceCoverage) coverage.push(meta.conformanceCoverage);
      if (meta.conformanceSchemaAudit) schemaAudits.push(meta.conformanceSchemaAudit);
      const errors = (result.errors ?? []).map((e) => redact(e.message));
      const timedOut = errors.map((message) => TIMED_OUT.exec(message)).find(Boolean);
      let state: CheckState;
      let reason: string | undefined;
      let skipReason: string | undefined;
      if (result.state === 'passed') {
        state = meta.conformanceVerdict?.state ?? 'passed';
        reason = meta.conformanceVerdict?.reason;
      } else if (result.state === 'failed') {
        // A check that ran out of vitest's time did not finish: that is no verdict on the rule.
        state = timedOut ? 'incomplete' : 'failed';
        if (timedOut) reason = `not finished: the check ran longer than ${timedOut[1]} ms`;
      } else if (result.state === 'skipped' && result.note && meta.conformanceSkipped) {
        state = 'skipped';
        skipReason = result.note;
      } else {
        // Selected but never run: the run stopped before reaching it.
        state = 'incomplete';
        reason = `not run: ${notRunReason}`;
      }
      tests.push({
        rule,
        title: testCase.name,
        file: module.relativeModuleId,
        state,
        durationMs: testCase.diagnostic()?.duration ?? 0,
        ...(skipReason !== undefined ? { skipReason: redact(skipReason) } : {}),
        ...(reason !== undefined ? { reason: redact(reason) } : {}),
        ...(meta.conformanceDeclaredSkip ? { declaredUnsupported: true } : {}),
        errors: state === 'failed' ? errors : [],
        failures: meta.conformanceFailures ?? [],
      });
    }
  }
  return { tests, runErrors, coverage, schemaAudits };
}

/** What a check's traffic showed of RESP-1 (set by the check wrapper, already redacted). */
export interface SchemaAuditMeta {
  readonly validatedSuccesses: number;
  readonly violations: readonly FailureReport[];
}

/**
 * RESP-1 judged on every answer the run saw: failed by any answer that broke its schema,
 * passed only when success answers with a body validated, inconclusive when none was seen.
 */
export function schemaAuditOutcome(audits: readonly SchemaAuditMeta[]): TestOutcome {
  const failures = audits.flatMap((audit) => audit.violations);
  const validated = audits.reduce((sum, audit) => sum + audit.validatedSuccesses, 0);
  const base = { ...SCHEMA_AUDIT_CHECK, durationMs: 0 };
  if (failures.length > 0) return { ...base, state: 'failed', errors: failures.map(formatFailure), failures };
  if (validated === 0)
    return {
      ...base,
      state: 'inconclusive',
      reason: 'no success answer with a body was seen during the run',
      errors: [],
      failures: [],
    };
  return { ...base, state: 'passed', errors: [], failures: [] };
}

/** A check the run never reached, for a report that lists every selected check. */
export function notRunOutcome(
  check: { rule: string; title: string; file: string },
  why: string,
): TestOutcome {
  return {
    ...check,
    state: 'incomplete',
    durationMs: 0,
    reason: `not run: ${why}`,
    errors: [],
    failures: [],
  };
}

/** The worst state wins: a failure, then an unfinished check, then a check without evidence. */
const STATE_ORDER: readonly CheckState[] = ['failed', 'incomplete', 'inconclusive', 'passed', 'skipped'];

export function ruleOutcomes(tests: readonly TestOutcome[]): RuleOutcome[] {
  const grouped = new Map<string, TestOutcome[]>();
  for (const test of tests) grouped.set(test.rule, [...(grouped.get(test.rule) ?? []), test]);
  const outcomes: RuleOutcome[] = [];
  for (const [id, ruleTests] of grouped) {
    const rule = findRule(id);
    const state = STATE_ORDER.find((candidate) => ruleTests.some((t) => t.state === candidate)) ?? 'skipped';
    outcomes.push({
      id,
      level: rule?.level ?? 'MUST',
      title: rule?.title ?? 'test names no known rule',
      state,
      tests: ruleTests,
      skipReasons: [...new Set(ruleTests.flatMap((t) => (t.skipReason ? [t.skipReason] : [])))],
    });
  }
  return outcomes;
}

export function totalsOf(rules: readonly RuleOutcome[]): Totals {
  const count = (state: CheckState) => rules.filter((r) => r.state === state).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    inconclusive: count('inconclusive'),
    incomplete: count('incomplete'),
    mustFailed: rules.filter((r) => r.state === 'failed' && r.level === 'MUST').length,
    shouldFailed: rules.filter((r) => r.state === 'failed' && r.level === 'SHOULD').length,
  };
}

/** What keeps a strict run from passing beyond failures: no evidence, or a skip nobody declared. */
export function gateOf(strict: boolean, rules: readonly RuleOutcome[]): GateOutcome {
  const problems = rules.flatMap((rule) => [
    ...(rule.state === 'inconclusive'
      ? [
          `${rule.id} is inconclusive: ${rule.tests.find((t) => t.state === 'inconclusive')?.reason ?? 'no evidence'}`,
        ]
      : []),
    ...rule.tests
      .filter((t) => t.state === 'skipped' && !t.declaredUnsupported)
      .map(
        (t) => `${rule.id} was skipped (${t.skipReason ?? 'no reason'}) without an unsupportedRules entry`,
      ),
  ]);
  return { strict, problems };
}

/** Failed on a MUST failure (or a strict gate refusal); incomplete when anything did not finish. */
export function verdictOf(
  totals: Totals,
  incompleteReasons: readonly string[],
  gate: GateOutcome,
): RunVerdict {
  if (totals.mustFailed > 0) return 'failed';
  if (totals.incomplete > 0 || incompleteReasons.length > 0) return 'incomplete';
  if (gate.strict && gate.problems.length > 0) return 'failed';
  return 'passed';
}

export function exitCodeOf(outcome: Pick<RunOutcome, 'verdict'>): number {
  return EXIT_CODES[outcome.verdict];
}
