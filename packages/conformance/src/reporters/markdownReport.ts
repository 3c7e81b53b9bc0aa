import type { Reporter } from '../run/events.js';
import type { RunOutcome } from '../run/outcome.js';
import { coverageLines } from '../specCoverage/coverageReport.js';
import { outcomeReporter } from './reportContext.js';
import { partialRunNote, ruleDetail, ruleMark, totalsLine, verdictLine } from './verdictText.js';

export const MARKDOWN_REPORT_FILE = 'conformance-summary.md';

/** Table cells hold one line; a pipe would end the cell. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replaceAll('|', '\\|');
}

/** The rule table as Markdown, e.g. for a CI job summary ($GITHUB_STEP_SUMMARY). */
export function renderMarkdown(outcome: RunOutcome): string {
  const { info } = outcome;
  const lines = [
    `## Conformance of \`${cell(info.target)}\` (${info.targetKind})`,
    '',
    `**${cell(verdictLine(outcome))}**`,
    '',
    `Run ${info.runId}. Seed ${info.seed}, depth ${info.depth}, concurrency ${info.concurrency}${info.shard ? `, shard ${info.shard}` : ''}${outcome.gate.strict ? ', strict gate' : ''}. ${cell(totalsLine(outcome))}`,
    '',
    '| Rule | Level | Result | Detail |',
    '| --- | --- | --- | --- |',
    ...outcome.rules.map(
      (rule) => `| ${rule.id} | ${rule.level} | ${ruleMark(rule)} | ${cell(ruleDetail(rule))} |`,
    ),
  ];
  lines.push(
    '',
    ...coverageLines(outcome.coverage, partialRunNote(outcome))
      .map((line) => cell(line.trim()))
      .map((line, i) => (i === 0 ? line : `- ${line}`)),
  );
  const failures = outcome.tests.flatMap((test) => test.failures.map((failure) => ({ test, failure })));
  if (failures.length > 0) {
    lines.push('', '### Failures', '');
    for (const { test, failure } of failures)
      lines.push(
        `- **${cell(test.title)}**: ${cell(failure.message)}${failure.replayFile ? ` — replay: \`${cell(failure.replayFile)}\`` : ''}`,
      );
  }
  if (outcome.gate.strict && outcome.gate.problems.length > 0) {
    lines.push('', '### Strict gate', '');
    for (const problem of outcome.gate.problems) lines.push(`- ${cell(problem)}`);
  }
  return `${lines.join('\n')}\n`;
}

export const markdownReport: Reporter = outcomeReporter({
  name: 'markdown',
  write(outcome, { writeFile, print }) {
    const file = writeFile(MARKDOWN_REPORT_FILE, renderMarkdown(outcome));
    print(`Markdown summary: ${file}`);
  },
});
