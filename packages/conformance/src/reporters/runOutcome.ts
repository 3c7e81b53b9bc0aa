import type { TestModule } from 'vitest/node';
import { findRule, type RuleLevel, ruleIdOfTitle } from '../ruleCatalogue/index.js';
import type { FailureReport } from '../suite/failureReport.js';
import type { TargetProfile } from '../targetProfile/index.js';

export type CheckState = 'passed' | 'failed' | 'skipped';

export interface TestOutcome {
  readonly rule: string;
  readonly title: string;
  readonly file: string;
  readonly state: CheckState;
  readonly durationMs: number;
  readonly skipReason?: string;
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
  readonly profile: TargetProfile;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly shard?: string;
}

export interface RunOutcome {
  readonly info: RunInfo;
  readonly rules: readonly RuleOutcome[];
  readonly tests: readonly TestOutcome[];
  /** Errors outside any check (a property file that failed to load, a crash): always fatal. */
  readonly runErrors: readonly string[];
  readonly created: readonly CreatedRecord[];
  readonly totals: {
    passed: number;
    failed: number;
    skipped: number;
    mustFailed: number;
    shouldFailed: number;
  };
}

export function testOutcomes(
  modules: readonly TestModule[],
  redact: (text: string) => string,
): { tests: TestOutcome[]; runErrors: string[] } {
  const tests: TestOutcome[] = [];
  const runErrors: string[] = [];
  for (const module of modules) {
    for (const error of module.errors())
      runErrors.push(redact(`${module.relativeModuleId}: ${error.message}`));
    for (const testCase of module.children.allTests()) {
      const result = testCase.result();
      const rule = ruleIdOfTitle(testCase.name) ?? '(no rule)';
      const meta = testCase.meta() as { conformanceFailures?: FailureReport[] };
      const state: CheckState =
        result.state === 'passed' ? 'passed' : result.state === 'failed' ? 'failed' : 'skipped';
      const skipReason =
        result.state === 'skipped'
          ? (result.note ?? (testCase.options.mode === 'skip' ? 'skipped' : 'not selected'))
          : undefined;
      tests.push({
        rule,
        title: testCase.name,
        file: module.relativeModuleId,
        state,
        durationMs: testCase.diagnostic()?.duration ?? 0,
        ...(skipReason !== undefined ? { skipReason: redact(skipReason) } : {}),
        errors: (result.errors ?? []).map((e) => redact(e.message)),
        failures: meta.conformanceFailures ?? [],
      });
    }
  }
  return { tests, runErrors };
}

export function ruleOutcomes(tests: readonly TestOutcome[]): RuleOutcome[] {
  const grouped = new Map<string, TestOutcome[]>();
  for (const test of tests) grouped.set(test.rule, [...(grouped.get(test.rule) ?? []), test]);
  const outcomes: RuleOutcome[] = [];
  for (const [id, ruleTests] of grouped) {
    const rule = findRule(id);
    const state: CheckState = ruleTests.some((t) => t.state === 'failed')
      ? 'failed'
      : ruleTests.some((t) => t.state === 'passed')
        ? 'passed'
        : 'skipped';
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

export function totalsOf(rules: readonly RuleOutcome[]): RunOutcome['totals'] {
  return {
    passed: rules.filter((r) => r.state === 'passed').length,
    failed: rules.filter((r) => r.state === 'failed').length,
    skipped: rules.filter((r) => r.state === 'skipped').length,
    mustFailed: rules.filter((r) => r.state === 'failed' && r.level === 'MUST').length,
    shouldFailed: rules.filter((r) => r.state === 'failed' && r.level === 'SHOULD').length,
  };
}

/** Non-zero on any MUST failure or run error; SHOULD failures only warn. */
export function exitCodeOf(outcome: RunOutcome): number {
  return outcome.totals.mustFailed > 0 || outcome.runErrors.length > 0 ? 1 : 0;
}
