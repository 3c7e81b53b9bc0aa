import type { ReportWriter } from './reportWriter.js';
import type { RunOutcome } from './runOutcome.js';

const MARK = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' } as const;

export function renderTable(outcome: RunOutcome): string {
  const lines: string[] = [];
  const { info } = outcome;
  lines.push(
    `Conformance of "${info.target}" (${info.targetKind}) — seed ${info.seed}, depth ${info.depth}${info.shard ? `, shard ${info.shard}` : ''}`,
  );
  lines.push('');
  const idWidth = Math.max(8, ...outcome.rules.map((r) => r.id.length));
  lines.push(`${'RULE'.padEnd(idWidth)}  LEVEL   RESULT  DETAIL`);
  for (const rule of outcome.rules) {
    const mark = rule.state === 'failed' && rule.level === 'SHOULD' ? 'WARN' : MARK[rule.state];
    const passedTests = rule.tests.filter((t) => t.state === 'passed').length;
    const detail =
      rule.state === 'skipped'
        ? rule.skipReasons.join('; ')
        : rule.state === 'failed'
          ? `${rule.tests.filter((t) => t.state === 'failed').length} of ${rule.tests.length} checks failed`
          : `${passedTests} check${passedTests === 1 ? '' : 's'} passed${rule.skipReasons.length ? ` (some skipped: ${rule.skipReasons.join('; ')})` : ''}`;
    lines.push(`${rule.id.padEnd(idWidth)}  ${rule.level.padEnd(6)}  ${mark.padEnd(6)}  ${detail}`);
  }
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
  if (outcome.created.length > 0) {
    lines.push('', 'Created or changed by this run:');
    for (const item of outcome.created)
      lines.push(`  ${item.kind} ${item.id} (${item.rule}): ${item.cleanup}`);
  }
  const t = outcome.totals;
  lines.push(
    '',
    `Rules: ${t.passed} passed, ${t.failed} failed (${t.mustFailed} MUST, ${t.shouldFailed} SHOULD), ${t.skipped} skipped — ${outcome.tests.length} check${outcome.tests.length === 1 ? '' : 's'} in ${(info.durationMs / 1000).toFixed(1)} s`,
  );
  return lines.join('\n');
}

export const tableReport: ReportWriter = {
  name: 'table',
  write(outcome, { print }) {
    print(renderTable(outcome));
  },
};
