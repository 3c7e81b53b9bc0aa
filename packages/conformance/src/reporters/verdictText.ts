import { rules } from '../ruleCatalogue/index.js';
import type { CheckState, RuleOutcome, RunOutcome } from '../run/outcome.js';
import { serverErrorStreakSentence } from '../run/serverErrorStreak.js';
import { gapText, partlyChecked } from '../run/verdict.js';

/** The RESULT column: what each rule's state is called in the table and the Markdown summary. */
export function ruleMark(rule: Pick<RuleOutcome, 'state' | 'level'>): string {
  if (rule.state === 'failed') return rule.level === 'SHOULD' ? 'WARN' : 'FAIL';
  const marks: Record<Exclude<CheckState, 'failed'>, string> = {
    passed: 'PASS',
    skipped: 'SKIP',
    inconclusive: 'INCONCLUSIVE',
    incomplete: 'INCOMPLETE',
  };
  return marks[rule.state];
}

/** One rule's detail: counts, and the reasons for anything that is not a plain pass. */
export function ruleDetail(rule: RuleOutcome): string {
  const count = (state: CheckState) => rule.tests.filter((t) => t.state === state).length;
  const reasons = (state: CheckState) => [
    ...new Set(
      rule.tests
        .filter((t) => t.state === state)
        .map((t) => `${t.reason ?? state}${t.remedy ? ` (what to do: ${t.remedy})` : ''}`),
    ),
  ];
  switch (rule.state) {
    case 'skipped':
      return rule.skipReasons.join('; ');
    case 'failed':
      return `${count('failed')} of ${rule.tests.length} checks failed`;
    case 'incomplete':
      return reasons('incomplete').join('; ');
    case 'inconclusive':
      return reasons('inconclusive').join('; ');
    case 'passed': {
      const passed = count('passed');
      const gaps = rule.tests.flatMap((t) => t.gaps ?? []).map(gapText);
      return `${passed} check${passed === 1 ? '' : 's'} passed${rule.skipReasons.length ? ` (some skipped: ${rule.skipReasons.join('; ')})` : ''}${gaps.length ? `; not checked: ${gaps.join('; ')}` : ''}`;
    }
  }
}

/** The closing verdict line, with what makes it so, and a target that went down mid-run. */
export function verdictLine(outcome: RunOutcome): string {
  const line = verdictOnly(outcome);
  return outcome.serverErrorStreak
    ? `${line}; ${serverErrorStreakSentence(outcome.serverErrorStreak)}`
    : line;
}

function verdictOnly(outcome: RunOutcome): string {
  const { verdict, gate } = outcome;
  if (verdict === 'passed') {
    // SHOULD rules seen broken do not fail the run, but a pass names them.
    const warned = outcome.rules
      .filter((rule) => rule.state === 'failed' && rule.level === 'SHOULD')
      .map((rule) => rule.id);
    const warnings =
      warned.length === 0
        ? ''
        : ` — with ${warned.length} SHOULD warning${warned.length === 1 ? '' : 's'} (${warned.join(', ')}: see above)`;
    if (gate.strict)
      return `Verdict: PASSED (strict gate: every rule has evidence, no undeclared skip, nothing left unchecked)${warnings}`;
    // A lenient pass says what it did not prove, so nobody reads it as the strict gate's.
    const unproven = outcome.rules.filter((rule) => rule.state === 'inconclusive').map((rule) => rule.id);
    const partial = partlyChecked(outcome.rules).map((entry) => entry.rule);
    const caveats = [
      ...(unproven.length > 0
        ? [
            `${unproven.length} rule${unproven.length === 1 ? ' has' : 's have'} no evidence (${unproven.join(', ')}: inconclusive, see above)`,
          ]
        : []),
      ...(partial.length > 0
        ? [
            `${partial.length} rule${partial.length === 1 ? '' : 's'} passed on part of what ${partial.length === 1 ? 'it checks' : 'they check'} (${partial.join(', ')}: "not checked", see above)`,
          ]
        : []),
    ];
    return caveats.length === 0
      ? `Verdict: PASSED${warnings}`
      : `Verdict: PASSED${warnings} — no rule was seen broken, but ${caveats.join(', and ')}; --strict fails such a run`;
  }
  if (verdict === 'incomplete')
    return `Verdict: INCOMPLETE — not a pass: ${outcome.incompleteReasons.join('; ')}`;
  const mustFailed = outcome.totals.mustFailed;
  return mustFailed > 0
    ? `Verdict: FAILED — ${mustFailed} MUST rule${mustFailed === 1 ? '' : 's'} failed`
    : `Verdict: FAILED — strict gate: ${gate.problems.length} problem${gate.problems.length === 1 ? '' : 's'}`;
}

export function totalsLine(outcome: RunOutcome): string {
  const t = outcome.totals;
  return `Rules: ${t.passed} passed, ${t.failed} failed (${t.mustFailed} MUST, ${t.shouldFailed} SHOULD), ${t.inconclusive} inconclusive, ${t.incomplete} incomplete, ${t.skipped} skipped — ${outcome.tests.length} check${outcome.tests.length === 1 ? '' : 's'} in ${(outcome.info.durationMs / 1000).toFixed(1)} s`;
}

/**
 * Why a run of some rules only (a replay, `--rules`, a shard) does not list the spec's coverage
 * gaps, or undefined for a run of every rule.
 */
export function partialRunNote(outcome: RunOutcome): string | undefined {
  const all = rules.length;
  return outcome.rules.length < all
    ? `(this run checked ${outcome.rules.length} of the ${all} rules; what is left unsent is listed for a run of every rule)`
    : undefined;
}
