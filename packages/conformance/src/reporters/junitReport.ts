import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportWriter } from './reportWriter.js';
import type { RunOutcome } from './runOutcome.js';

export const JUNIT_REPORT_FILE = 'conformance-junit.xml';

function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

export function renderJunit(outcome: RunOutcome): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="conformance ${escapeXml(outcome.info.target)}" tests="${outcome.tests.length}" failures="${outcome.tests.filter((x) => x.state === 'failed').length}" skipped="${outcome.tests.filter((x) => x.state === 'skipped').length}" time="${(outcome.info.durationMs / 1000).toFixed(3)}">`,
  );
  for (const rule of outcome.rules) {
    out.push(
      `  <testsuite name="${escapeXml(rule.id)}" tests="${rule.tests.length}" failures="${rule.tests.filter((x) => x.state === 'failed').length}" skipped="${rule.tests.filter((x) => x.state === 'skipped').length}">`,
    );
    for (const test of rule.tests) {
      out.push(
        `    <testcase classname="${escapeXml(rule.id)}" name="${escapeXml(test.title)}" time="${(test.durationMs / 1000).toFixed(3)}">`,
      );
      out.push('      <properties>');
      out.push(`        <property name="rule" value="${escapeXml(rule.id)}"/>`);
      out.push(`        <property name="level" value="${rule.level}"/>`);
      out.push(`        <property name="seed" value="${outcome.info.seed}"/>`);
      out.push('      </properties>');
      if (test.state === 'failed') {
        const kind = rule.level === 'SHOULD' ? 'should-violation' : 'must-violation';
        out.push(
          `      <failure type="${kind}" message="${escapeXml(test.errors[0]?.split('\n')[0] ?? 'failed')}">${escapeXml(test.errors.join('\n\n'))}</failure>`,
        );
      }
      if (test.state === 'skipped')
        out.push(`      <skipped message="${escapeXml(test.skipReason ?? 'skipped')}"/>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

export const junitReport: ReportWriter = {
  name: 'junit',
  write(outcome, { outDir, print }) {
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, JUNIT_REPORT_FILE);
    writeFileSync(file, renderJunit(outcome));
    print(`JUnit report: ${file}`);
  },
};
