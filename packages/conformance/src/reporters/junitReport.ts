import type { Reporter } from '../run/events.js';
import type { RunOutcome, TestOutcome } from '../run/outcome.js';
import { gapText } from '../run/verdict.js';
import { terminalSafe } from '../terminalSafe.js';
import { outcomeReporter } from './reportContext.js';

export const JUNIT_REPORT_FILE = 'conformance-junit.xml';

/**
 * Text as XML 1.0 allows it, and as a CI log that prints the file shows it: controls the
 * terminal would act on (ESC, the C1 range with its one-byte CSI) written as `\u00XX` first.
 */
function escapeXml(text: string): string {
  return terminalSafe(text)
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/**
 * How a check shows in JUnit, where only failure, error and skipped exist: a failure is a
 * `<failure>`, a check that did not finish an `<error>` (so no CI reads the run as green), an
 * inconclusive check `<skipped>` — or, in the strict gate, a `<failure>`, as is a skip the
 * profile did not declare and a pass that left part of its rule unchecked.
 */
function junitKind(test: TestOutcome, outcome: RunOutcome): 'failure' | 'error' | 'skipped' | undefined {
  if (test.state === 'failed') return 'failure';
  if (test.state === 'incomplete') return 'error';
  const strict = outcome.gate.strict;
  if (test.state === 'passed' && test.gaps) return strict ? 'failure' : undefined;
  if (test.state === 'inconclusive') return strict ? 'failure' : 'skipped';
  if (test.state === 'skipped') return strict && !test.declaredUnsupported ? 'failure' : 'skipped';
  return undefined;
}

export function renderJunit(outcome: RunOutcome): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const count = (tests: readonly TestOutcome[], kind: string) =>
    tests.filter((test) => junitKind(test, outcome) === kind).length;
  const counts = (tests: readonly TestOutcome[]) =>
    `tests="${tests.length}" failures="${count(tests, 'failure')}" errors="${count(tests, 'error')}" skipped="${count(tests, 'skipped')}"`;
  out.push(
    `<testsuites name="conformance ${escapeXml(outcome.info.target)}" ${counts(outcome.tests)} time="${(outcome.info.durationMs / 1000).toFixed(3)}">`,
  );
  for (const rule of outcome.rules) {
    out.push(`  <testsuite name="${escapeXml(rule.id)}" ${counts(rule.tests)}>`);
    out.push('    <properties>');
    out.push(`      <property name="run-verdict" value="${outcome.verdict}"/>`);
    out.push(`      <property name="run-id" value="${escapeXml(outcome.info.runId)}"/>`);
    out.push(`      <property name="rule-state" value="${rule.state}"/>`);
    const pairs = outcome.coverage.responsePairs;
    out.push(
      `      <property name="coverage-response-pairs" value="${pairs.observed}/${pairs.documented}"/>`,
    );
    out.push('    </properties>');
    for (const test of rule.tests) {
      out.push(
        `    <testcase classname="${escapeXml(rule.id)}" name="${escapeXml(test.title)}" time="${(test.durationMs / 1000).toFixed(3)}">`,
      );
      out.push('      <properties>');
      out.push(`        <property name="rule" value="${escapeXml(rule.id)}"/>`);
      out.push(`        <property name="level" value="${rule.level}"/>`);
      out.push(`        <property name="state" value="${test.state}"/>`);
      out.push(`        <property name="seed" value="${outcome.info.seed}"/>`);
      if (test.gaps)
        out.push(
          `        <property name="not-checked" value="${escapeXml((test.gaps ?? []).map(gapText).join('; '))}"/>`,
        );
      out.push('      </properties>');
      const kind = junitKind(test, outcome);
      if (test.state === 'failed') {
        const type = rule.level === 'SHOULD' ? 'should-violation' : 'must-violation';
        out.push(
          `      <failure type="${type}" message="${escapeXml(test.errors[0]?.split('\n')[0] ?? 'failed')}">${escapeXml(test.errors.join('\n\n'))}</failure>`,
        );
      } else if (kind === 'error') {
        out.push(`      <error type="incomplete" message="${escapeXml(test.reason ?? 'did not finish')}"/>`);
      } else if (kind === 'failure') {
        const type =
          test.state === 'inconclusive'
            ? 'inconclusive'
            : test.state === 'passed'
              ? 'not-checked'
              : 'undeclared-skip';
        const why =
          test.state === 'inconclusive'
            ? test.reason
            : test.state === 'passed'
              ? (test.gaps ?? []).map(gapText).join('; ')
              : test.skipReason;
        out.push(
          `      <failure type="strict-gate-${type}" message="${escapeXml(`${type} in strict gate mode: ${why ?? ''}`)}"/>`,
        );
      } else if (kind === 'skipped') {
        const why =
          test.state === 'inconclusive'
            ? `inconclusive: ${test.reason ?? ''}`
            : (test.skipReason ?? 'skipped');
        out.push(`      <skipped message="${escapeXml(why)}"/>`);
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

export const junitReport: Reporter = outcomeReporter({
  name: 'junit',
  write(outcome, { writeFile, print }) {
    const file = writeFile(JUNIT_REPORT_FILE, renderJunit(outcome));
    print(`JUnit report: ${file}`);
  },
});
