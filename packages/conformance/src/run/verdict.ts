import type { CheckGap } from '../checks/check.js';
import { findRule } from '../ruleCatalogue/index.js';
import type {
  CheckResult,
  CheckState,
  GateOutcome,
  RuleOutcome,
  RunOutcome,
  RunVerdict,
  TestOutcome,
  Totals,
} from './outcome.js';

/** What the process exit code says about a run (130/143 for signals are the CLI's). */
export const EXIT_CODES = {
  passed: 0,
  /** A MUST rule failed, or the strict gate refused the run. */
  failed: 1,
  /** Bad options, profile or input; nothing was sent. */
  badInput: 2,
  /** The run did not finish: deadline, interrupt, unreachable target. */
  incomplete: 3,
} as const;

/** The report's view of a check's typed result. */
export function testOutcomeOf(result: CheckResult): TestOutcome {
  const { verdict } = result;
  const base = {
    rule: result.rule,
    title: result.title,
    file: result.file,
    durationMs: result.durationMs,
    ...(result.gaps ? { gaps: result.gaps } : {}),
  };
  switch (verdict.state) {
    case 'passed':
      return { ...base, state: 'passed', errors: [], failures: [] };
    case 'failed':
      return { ...base, state: 'failed', errors: verdict.errors, failures: verdict.failures };
    case 'inconclusive':
      return {
        ...base,
        state: 'inconclusive',
        reason: verdict.reason,
        ...(verdict.remedy ? { remedy: verdict.remedy } : {}),
        errors: [],
        failures: [],
      };
    case 'incomplete':
      return { ...base, state: 'incomplete', reason: verdict.reason, errors: [], failures: [] };
    case 'skipped':
      return {
        ...base,
        state: 'skipped',
        skipReason: verdict.reason,
        ...(verdict.declared ? { declaredUnsupported: true } : {}),
        errors: [],
        failures: [],
      };
  }
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

/** Checks grouped by rule, in the order rules first appear; a rule takes the worst state of its checks. */
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

/** Rules in the catalogue's order (the order of the document's sentences). */
export function inCatalogueOrder(
  outcomes: readonly RuleOutcome[],
  catalogueOrder: readonly string[],
): RuleOutcome[] {
  const order = new Map(catalogueOrder.map((id, index) => [id, index]));
  return [...outcomes].sort((a, b) => (order.get(a.id) ?? 999) - (order.get(b.id) ?? 999));
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

/** One gap as the report words it: what went unchecked and what to do about it. */
export function gapText(gap: CheckGap): string {
  return `${gap.what} (what to do: ${gap.remedy})`;
}

/** Rules that passed without reaching all they check, each with what it left out. */
export function partlyChecked(rules: readonly RuleOutcome[]): { rule: string; gaps: CheckGap[] }[] {
  return rules
    .filter((rule) => rule.state === 'passed')
    .map((rule) => ({ rule: rule.id, gaps: rule.tests.flatMap((t) => t.gaps ?? []) }))
    .filter((entry) => entry.gaps.length > 0);
}

/**
 * What keeps a strict run from passing beyond failures: no evidence, a skip nobody declared, or
 * a pass that left part of its rule unchecked.
 */
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
  const unchecked = partlyChecked(rules).flatMap(({ rule, gaps }) =>
    gaps.map((gap) => `${rule} passed without checking ${gapText(gap)}`),
  );
  return { strict, problems: [...problems, ...unchecked] };
}

/** How the run itself ended, beyond its checks' states. */
export interface RunEnding {
  readonly interrupted: boolean;
  /** The signal that interrupted it, when the caller named one (the CLI does): `SIGHUP`. */
  readonly interruptedBy?: string | undefined;
  readonly deadlineReached: boolean;
  readonly deadlineSeconds: number;
  /** A replay whose check did not run at all. */
  readonly replayNotRun: boolean;
  /** A replay on its recorded target whose check passed: the recorded failure did not come back. */
  readonly replayNotReproduced?: { readonly rule: string; readonly seed: number } | undefined;
}

/** Why a run is incomplete, in the words the report uses; empty when it finished. */
export function incompleteReasonsOf(ending: RunEnding, tests: readonly TestOutcome[]): string[] {
  const unfinished = tests.filter((t) => t.state === 'incomplete').length;
  return [
    ...(ending.interrupted
      ? [`the run was interrupted (${ending.interruptedBy ?? 'Ctrl-C or SIGTERM'})`]
      : []),
    ...(ending.deadlineReached && !ending.interrupted
      ? [`the run deadline (--deadline ${ending.deadlineSeconds} s) passed before every check finished`]
      : []),
    ...(unfinished > 0 ? [`${unfinished} check${unfinished === 1 ? '' : 's'} did not finish`] : []),
    ...(ending.replayNotRun ? ['the replayed check did not run'] : []),
    ...(ending.replayNotReproduced
      ? [
          `the recorded ${ending.replayNotReproduced.rule} failure did not reproduce when replayed alone, which does not tell a fix from a failure that needed what other checks did before it (run the whole suite with --seed ${ending.replayNotReproduced.seed} to tell)`,
        ]
      : []),
    ...(tests.length === 0 ? ['no check was selected (an empty shard?): nothing was checked'] : []),
    // A run that saw no evidence for any rule shows nothing: it is never green, strict or not,
    // whether its checks were inconclusive, skipped (a read-only profile and mutating rules) or cut
    // short.
    ...(tests.length > 0 && !tests.some((t) => t.state === 'passed' || t.state === 'failed')
      ? [`no check saw evidence either way: none passed or failed (${evidenceless(tests)})`]
      : []),
  ];
}

/** What the checks of a run without evidence ended as, counted: `3 skipped, 1 inconclusive`. */
function evidenceless(tests: readonly TestOutcome[]): string {
  const states: CheckState[] = ['incomplete', 'inconclusive', 'skipped'];
  return states
    .map((state) => [state, tests.filter((t) => t.state === state).length] as const)
    .filter(([, count]) => count > 0)
    .map(([state, count]) => `${count} ${state}`)
    .join(', ');
}

/**
 * Failed on a MUST failure (what was shown to break the document is shown, even in a run cut
 * short); incomplete when anything did not finish; failed when the strict gate refuses; else passed.
 */
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
