#!/usr/bin/env node
// The contract gate's pull-request comment: one comment per gate (found again by a hidden marker
// naming its artifact), posted on the first run and edited on every later one, with the verdict,
// the failed rules and a link to the artifact holding the HTML report, the HAR and the replay
// files. Built only from the CLI's JSON report, whose every text the CLI already redacted; the
// token this step is given is stripped from the body as well. It never fails the job: the gate
// step's exit code is the verdict, and a comment that cannot be written (a fork's read-only
// token) is a warning.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** GitHub refuses bodies over 65,536 characters; the failed rules are cut well before. */
const MAX_RULE_ROWS = 30;
const MAX_PAGES = 30;

/** The hidden line that finds this gate's comment again (one per artifact, so shards keep theirs). */
export function commentMarker(artifactName) {
  return `<!-- cloud-api-conformance-gate: ${String(artifactName).replace(/[^\w.-]/g, '_')} -->`;
}

/**
 * One line of untrusted text for a Markdown table cell: no HTML, no pipe ending the cell, no
 * line break, no @mention that would notify someone.
 */
export function cell(text) {
  return String(text)
    .replace(/\s+/g, ' ')
    .trim()
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('|', '\\|')
    .replaceAll('`', "'")
    .replaceAll('@', '@\u200b');
}

const HEADLINE = {
  passed: '✅ Contract gate: passed',
  failed: '❌ Contract gate: failed',
  incomplete: '⚠️ Contract gate: incomplete',
};

function ruleMark(rule) {
  if (rule.state === 'failed') return rule.level === 'SHOULD' ? 'WARN' : 'FAIL';
  return rule.state.toUpperCase();
}

function why(report) {
  const { totals, incompleteReasons = [], gate = { strict: false, problems: [] } } = report;
  if (report.verdict === 'passed')
    return gate.strict
      ? 'Every rule passed or is declared unsupported, and every rule had evidence (strict gate).'
      : 'No MUST rule failed and every selected check finished.';
  if (report.verdict === 'incomplete')
    return `The run did not finish, so it is not a pass: ${incompleteReasons.map(cell).join('; ')}.`;
  if (totals.mustFailed > 0)
    return `${totals.mustFailed} MUST rule${totals.mustFailed === 1 ? '' : 's'} failed.`;
  return `The strict gate refused the run: ${gate.problems.map(cell).join('; ')}.`;
}

/**
 * The comment's Markdown (pure, for the test). `report` is the CLI's conformance-report.json, or
 * undefined when the run wrote none (bad input); `secrets` are stripped from the result whatever
 * their source.
 */
export function commentBody(
  report,
  { artifactName, artifactUrl, runUrl, verdict, exitCode, sha, secrets = [] },
) {
  const lines = [commentMarker(artifactName)];
  const evidence = artifactUrl
    ? `[the \`${cell(artifactName)}\` artifact](${artifactUrl})`
    : `the \`${cell(artifactName)}\` artifact${runUrl ? ` of [the workflow run](${runUrl})` : ''}`;
  if (!report) {
    lines.push(
      `## ⚠️ Contract gate: ${cell(verdict ?? 'no verdict')} (exit ${cell(exitCode ?? '?')})`,
      '',
      `No report was written; ${runUrl ? `[the step's log](${runUrl})` : "the step's log"} says why.`,
    );
  } else {
    const { info = {}, totals, rules = [] } = report;
    const environment = info.profile?.environment ? `, ${cell(info.profile.environment)}` : '';
    lines.push(
      `## ${HEADLINE[report.verdict] ?? `Contract gate: ${cell(report.verdict)}`}`,
      '',
      `**${cell(report.verdict.toUpperCase())}** against \`${cell(info.target ?? '?')}\` (${cell(info.targetKind ?? '?')}${environment}): ${why(report)}`,
      '',
      `${rules.length} rules: ${totals.passed} passed, ${totals.failed} failed (${totals.mustFailed} MUST, ${totals.shouldFailed} SHOULD), ${totals.inconclusive} inconclusive, ${totals.incomplete} incomplete, ${totals.skipped} skipped.`,
    );
    const failed = rules.filter((rule) => rule.state === 'failed');
    if (failed.length > 0) {
      lines.push('', '| Rule | Level | Result | What it checks |', '| --- | --- | --- | --- |');
      for (const rule of failed.slice(0, MAX_RULE_ROWS))
        lines.push(`| ${cell(rule.id)} | ${cell(rule.level)} | ${ruleMark(rule)} | ${cell(rule.title)} |`);
      if (failed.length > MAX_RULE_ROWS)
        lines.push('', `…and ${failed.length - MAX_RULE_ROWS} more failed rules.`);
    }
    lines.push(
      '',
      `Evidence: the HTML report (\`conformance-report.html\`: each failure's counterexample, exchanges and replay command), the HAR, the JSON and JUnit reports and the replay files, in ${evidence}.`,
    );
  }
  lines.push(
    '',
    `<sub>Run ${cell(report?.info?.runId ?? '-')}${sha ? ` on ${cell(String(sha).slice(0, 12))}` : ''}; this comment is updated by every run of the gate.</sub>`,
    '',
  );
  let body = lines.join('\n');
  for (const secret of secrets) if (secret) body = body.split(secret).join('[redacted]');
  return body;
}

/** The comment of this gate among a pull request's comments, if there is one. */
export function findMarkedComment(comments, marker) {
  return comments.find((comment) => typeof comment.body === 'string' && comment.body.includes(marker));
}

async function github(method, url, token, body) {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'cloud-api-contract-gate',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}`);
  return response.status === 204 ? undefined : response.json();
}

/** Posts or edits the gate's comment; returns what it did. */
export async function postOrUpdate({ api, repository, pullNumber, token, body, marker }) {
  const comments = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const batch = await github(
      'GET',
      `${api}/repos/${repository}/issues/${pullNumber}/comments?per_page=100&page=${page}`,
      token,
    );
    comments.push(...batch);
    if (batch.length < 100) break;
  }
  const existing = findMarkedComment(comments, marker);
  if (existing) {
    await github('PATCH', `${api}/repos/${repository}/issues/comments/${existing.id}`, token, { body });
    return { action: 'updated', id: existing.id };
  }
  const created = await github('POST', `${api}/repos/${repository}/issues/${pullNumber}/comments`, token, {
    body,
  });
  return { action: 'created', id: created.id };
}

function pullRequestNumber(eventPath) {
  if (!eventPath || !existsSync(eventPath)) return undefined;
  const event = JSON.parse(readFileSync(eventPath, 'utf8'));
  return event.pull_request?.number;
}

async function main() {
  const env = process.env;
  const token = env.GATE_GITHUB_TOKEN ?? '';
  const pullNumber = pullRequestNumber(env.GITHUB_EVENT_PATH);
  if (!token || !pullNumber || !env.GITHUB_REPOSITORY) {
    console.log('Contract gate: no token or no pull request, so no comment.');
    return;
  }
  const reportFile = join(env.REPORT_DIR ?? '', 'conformance-report.json');
  const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined;
  const runUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  const artifactName = env.ARTIFACT_NAME || 'conformance';
  const body = commentBody(report, {
    artifactName,
    artifactUrl: env.ARTIFACT_URL || undefined,
    runUrl,
    verdict: env.GATE_VERDICT,
    exitCode: env.GATE_EXIT_CODE,
    sha: env.GITHUB_SHA,
    secrets: [token],
  });
  try {
    const done = await postOrUpdate({
      api: env.GITHUB_API_URL || 'https://api.github.com',
      repository: env.GITHUB_REPOSITORY,
      pullNumber,
      token,
      body,
      marker: commentMarker(artifactName),
    });
    console.log(`Contract gate: pull request comment ${done.action} (${done.id}).`);
  } catch (error) {
    // A fork's token cannot write comments; the verdict is the gate step's, not this one's.
    console.log(
      `::warning title=Contract gate::could not write the pull request comment (${error.message}); the job needs permissions: pull-requests: write`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
