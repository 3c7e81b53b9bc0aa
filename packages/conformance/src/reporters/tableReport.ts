import type { Reporter } from '../run/events.js';
import type { RunOutcome } from '../run/outcome.js';
import { coverageLines } from '../specCoverage/coverageReport.js';
import { outcomeReporter } from './reportContext.js';
import { partialRunNote, ruleDetail, ruleMark, totalsLine, verdictLine } from './verdictText.js';

export function renderTable(outcome: RunOutcome): string {
  const lines: string[] = [];
  const { info } = outcome;
  lines.push(
    `Conformance of "${info.target}" (${info.targetKind}) — seed ${info.seed}, depth ${info.depth}, concurrency ${info.concurrency}${info.shard ? `, shard ${info.shard}` : ''}${outcome.gate.strict ? ', strict gate' : ''}; suite ${info.suiteVersion} (${info.suiteBuild})`,
  );
  lines.push('');
  const idWidth = Math.max(8, ...outcome.rules.map((r) => r.id.length));
  const markWidth = Math.max(6, ...outcome.rules.map((r) => ruleMark(r).length));
  lines.push(`${'RULE'.padEnd(idWidth)}  LEVEL   ${'RESULT'.padEnd(markWidth)}  DETAIL`);
  for (const rule of outcome.rules)
    lines.push(
      `${rule.id.padEnd(idWidth)}  ${rule.level.padEnd(6)}  ${ruleMark(rule).padEnd(markWidth)}  ${ruleDetail(rule)}`,
    );
  const failures = outcome.tests.filter((t) => t.state === 'failed');
  if (failures.length > 0) {
    lines.push('', 'Failures:');
    for (const test of failures) {
      lines.push('', `✗ ${test.title}`);
      for (const error of test.errors) lines.push(...error.split('\n').map((line) => `  ${line}`));
    }
  }
  if (outcome.runErrors.length > 0) {
    lines.push('', 'Run errors:');
    for (const error of outcome.runErrors) lines.push(`  ${error}`);
  }
  if (outcome.gate.strict && outcome.gate.problems.length > 0) {
    lines.push('', 'Strict gate:');
    for (const problem of outcome.gate.problems) lines.push(`  ${problem}`);
  }
  if (outcome.created.length > 0) lines.push('', 'Created or changed by this run:', ...createdLines(outcome));
  lines.push('', ...coverageLines(outcome.coverage, partialRunNote(outcome)));
  lines.push('', totalsLine(outcome), verdictLine(outcome));
  return lines.join('\n');
}

/**
 * One line per kind of thing left and what became of it; a run leaves dozens of VMs no endpoint
 * deletes, so their ids follow on wrapped lines rather than one line each.
 */
function createdLines(outcome: RunOutcome): string[] {
  const groups = new Map<string, RunOutcome['created'][number][]>();
  for (const item of outcome.created) {
    const key = `${item.kind}\u0000${item.cleanup}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.values()].flatMap((items) => {
    const [first] = items as [RunOutcome['created'][number], ...RunOutcome['created']];
    const rules = [...new Set(items.map((item) => item.rule))].join(', ');
    // One resource answered to two rules (a replayed 202) is listed, and counted, once.
    const ids = [...new Set(items.map((i) => String(i.id)))];
    if (ids.length === 1) return [`  ${first.kind} ${first.id} (${rules}): ${first.cleanup}`];
    return [`  ${first.kind}, ${ids.length} of them (${rules}): ${first.cleanup}`, ...wrapped(ids)];
  });
}

/** Ids joined by commas, in lines of about 100 characters, indented under their group. */
function wrapped(ids: readonly string[]): string[] {
  const lines: string[] = [];
  let line = '';
  for (const id of ids) {
    if (line && line.length + id.length + 2 > 96) {
      lines.push(`    ${line},`);
      line = '';
    }
    line = line ? `${line}, ${id}` : id;
  }
  if (line) lines.push(`    ${line}`);
  return lines;
}

export const tableReport: Reporter = outcomeReporter({
  name: 'table',
  write(outcome, { print }) {
    print(renderTable(outcome));
  },
});
