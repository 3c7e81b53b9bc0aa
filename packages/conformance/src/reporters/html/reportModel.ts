import { STATUS_CODES } from 'node:http';
import type { FailureReport } from '../../checks/failureReport.js';
import { findRule } from '../../ruleCatalogue/index.js';
import type { ExchangeEvent, ObservedBody } from '../../run/events.js';
import type { CheckState, RunOutcome, TestOutcome } from '../../run/outcome.js';
import { gapText } from '../../run/verdict.js';
import { coverageLines } from '../../specCoverage/coverageReport.js';
import { ruleDetail, ruleMark, totalsLine, verdictLine } from '../verdictText.js';
import type { ExchangeDigest } from './exchangeDigest.js';
import { groupByArea } from './ruleAreas.js';

/**
 * Everything the HTML report shows, as plain data: the template only lays it out. Every text here
 * came from the run's events (already redacted) or from the suite itself; the template escapes
 * all of it all the same.
 */
export interface ReportModel {
  readonly title: string;
  readonly verdict: {
    readonly state: RunOutcome['verdict'];
    readonly label: string;
    readonly line: string;
    /** What makes the verdict so: failed MUST rules, incomplete reasons, strict-gate problems. */
    readonly why: readonly string[];
    readonly failedRules: readonly { readonly id: string; readonly level: string; readonly anchor: string }[];
  };
  readonly target: {
    readonly name: string;
    readonly kind: string;
    readonly environment?: string;
    readonly baseUrl?: string;
  };
  readonly facts: readonly { readonly label: string; readonly value: string }[];
  readonly totals: string;
  readonly counts: readonly { readonly label: string; readonly count: number; readonly state: string }[];
  readonly glossary: readonly { readonly term: string; readonly text: string }[];
  readonly failures: readonly FailureView[];
  readonly areas: readonly {
    readonly prefix: string;
    readonly name: string;
    readonly summary: string;
    readonly rules: readonly RuleView[];
  }[];
  readonly coverage: { readonly summary: string; readonly rows: readonly CoverageRow[] };
  readonly timing: TimingView;
  readonly runErrors: readonly string[];
  readonly created: readonly string[];
}

/** A run of text, or of code: the catalogue writes code in backticks, as Markdown does. */
export interface TextPart {
  readonly text: string;
  readonly code: boolean;
}

export interface RuleView {
  readonly id: string;
  readonly anchor: string;
  readonly level: string;
  readonly state: CheckState;
  readonly mark: string;
  readonly title: string;
  readonly quotes: readonly (readonly TextPart[])[];
  readonly latitude?: readonly TextPart[];
  readonly detail: string;
  readonly checks: readonly {
    readonly title: string;
    readonly state: CheckState;
    readonly note?: string;
    readonly failureAnchor?: string;
  }[];
}

export interface BodyView {
  readonly text: string;
  readonly note?: string;
}

export interface ExchangeView {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly timing?: string;
  readonly requestHeaders: readonly (readonly [string, string])[];
  readonly requestBody?: BodyView;
  readonly responseHeaders: readonly (readonly [string, string])[];
  readonly responseBody: BodyView;
  /** The same request and answer as the counterexample's. */
  readonly sameAsShown?: boolean;
}

export interface FailureView {
  readonly anchor: string;
  readonly rule: string;
  readonly level: string;
  readonly check: string;
  readonly message: string;
  readonly seed?: string;
  readonly path?: string;
  readonly counterexample?: string;
  readonly replayCommand?: string;
  readonly replayFile?: string;
  readonly exchange?: ExchangeView;
  /** The check's last requests before it ended, the counterexample's among them. */
  readonly recent: readonly ExchangeView[];
  /** A failure without a counterexample (seen outside a property): its error text. */
  readonly errors: readonly string[];
}

export interface CoverageRow {
  readonly operationId: string;
  readonly observed: number;
  readonly documented: number;
  /** 0–100. */
  readonly percent: number;
  readonly missing: readonly string[];
}

export interface TimingView {
  readonly requests: number;
  readonly seconds: string;
  readonly perSecond: string;
  readonly slowestOperations: readonly {
    readonly operation: string;
    readonly count: number;
    readonly p50: string;
    readonly p95: string;
    readonly max: string;
    /** p95 against the slowest p95, 0–100, for the bar. */
    readonly percent: number;
  }[];
  readonly slowestChecks: readonly { readonly title: string; readonly seconds: string }[];
}

const SLOWEST = 8;

const GLOSSARY: ReportModel['glossary'] = [
  { term: 'passed', text: 'Every selected check finished and no MUST rule failed.' },
  {
    term: 'failed',
    text: 'A check found a counterexample: a request whose answer breaks the rule. A failed MUST rule fails the run; a failed SHOULD rule only warns.',
  },
  {
    term: 'inconclusive',
    text: 'The check ran but saw no evidence either way (for example every answer was a 500 where a record was expected). Never counted as a pass; with the strict gate it fails the run.',
  },
  {
    term: 'incomplete',
    text: 'The check did not finish: the deadline passed, the target gave no answer, or the run was interrupted. A run with an incomplete check is incomplete (exit 3), never green.',
  },
  {
    term: 'skipped',
    text: 'The target cannot check the rule, or the profile lacks what it needs. With the strict gate only a skip the profile declares in unsupportedRules is allowed.',
  },
  {
    term: 'strict gate',
    text: 'Gate mode for CI (--strict, or strict: true in the profile): an inconclusive rule, an undeclared skip or a pass that left part of its rule unchecked fails the run too.',
  },
];

/** The catalogue's `code` spans as parts (each still escaped by the template); unbalanced backticks stay text. */
export function textParts(text: string): TextPart[] {
  const pieces = text.split('`');
  if (pieces.length % 2 === 0) return [{ text, code: false }];
  return pieces.map((piece, index) => ({ text: piece, code: index % 2 === 1 })).filter((part) => part.text);
}

const anchorOf = (prefix: string, text: string): string =>
  `${prefix}-${text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;

function bodyView(body: ObservedBody): BodyView {
  return {
    text: body.text,
    ...(body.truncated
      ? { note: `truncated: the first ${body.text.length} characters of ${body.size} bytes` }
      : {}),
  };
}

function failureExchange(report: FailureReport): ExchangeView | undefined {
  const { request, response } = report;
  if (!request || !response) return undefined;
  return {
    method: request.method,
    url: request.url,
    status: response.status,
    statusText: STATUS_CODES[response.status] ?? '',
    requestHeaders: Object.entries(request.headers),
    ...(request.body !== undefined ? { requestBody: { text: request.body } } : {}),
    responseHeaders: Object.entries(response.headers),
    responseBody: { text: response.body },
  };
}

function observedExchange(event: ExchangeEvent, shown: ExchangeView | undefined): ExchangeView {
  return {
    method: event.method,
    url: event.url,
    status: event.status,
    statusText: STATUS_CODES[event.status] ?? '',
    timing: `${event.startedAt}, ${event.durationMs.toFixed(1)} ms`,
    requestHeaders: Object.entries(event.request.headers),
    ...(event.request.body ? { requestBody: bodyView(event.request.body) } : {}),
    responseHeaders: Object.entries(event.response.headers),
    responseBody: bodyView(event.response.body),
    ...(shown && shown.method === event.method && shown.url === event.url && shown.status === event.status
      ? { sameAsShown: true }
      : {}),
  };
}

function failureViews(outcome: RunOutcome, digest: ExchangeDigest): FailureView[] {
  const failed = outcome.tests.filter((test) => test.state === 'failed');
  return failed.flatMap((test, testIndex) => {
    const level = findRule(test.rule)?.level ?? 'MUST';
    const recentEvents = digest.recentOfFailed.get(test.title) ?? [];
    const base = { rule: test.rule, level, check: test.title };
    if (test.failures.length === 0)
      return [
        {
          ...base,
          anchor: anchorOf('failure', `${test.rule}-${testIndex + 1}`),
          message: test.errors[0]?.split('\n')[0] ?? 'failed',
          recent: recentEvents.map((event) => observedExchange(event, undefined)),
          errors: test.errors,
        },
      ];
    return test.failures.map((report, index): FailureView => {
      const exchange = failureExchange(report);
      return {
        ...base,
        anchor: anchorOf('failure', `${test.rule}-${testIndex + 1}-${index + 1}`),
        message: report.message,
        ...(report.seed !== undefined ? { seed: String(report.seed) } : {}),
        ...(report.path !== undefined ? { path: report.path } : {}),
        ...(report.counterexample !== undefined ? { counterexample: report.counterexample } : {}),
        ...(report.replayCommand !== undefined ? { replayCommand: report.replayCommand } : {}),
        ...(report.replayFile !== undefined ? { replayFile: report.replayFile } : {}),
        ...(exchange ? { exchange } : {}),
        // Only the last failure of a check is the one its final requests reproduced.
        recent:
          index === test.failures.length - 1
            ? recentEvents.map((event) => observedExchange(event, exchange))
            : [],
        errors: [],
      };
    });
  });
}

function checkNote(test: TestOutcome): string | undefined {
  if (test.state === 'skipped') return test.skipReason;
  if (test.state === 'inconclusive' || test.state === 'incomplete')
    return [test.reason, test.remedy ? `what to do: ${test.remedy}` : undefined].filter(Boolean).join(' — ');
  if (test.gaps) return `not checked: ${test.gaps.map(gapText).join('; ')}`;
  return undefined;
}

function verdictWhy(outcome: RunOutcome): string[] {
  const why: string[] = [];
  const mustFailed = outcome.rules.filter((rule) => rule.state === 'failed' && rule.level === 'MUST');
  const shouldFailed = outcome.rules.filter((rule) => rule.state === 'failed' && rule.level === 'SHOULD');
  if (mustFailed.length > 0) why.push(`MUST rules failed: ${mustFailed.map((rule) => rule.id).join(', ')}.`);
  if (shouldFailed.length > 0)
    why.push(
      `SHOULD rules failed (a warning, not a failure of the run): ${shouldFailed.map((rule) => rule.id).join(', ')}.`,
    );
  for (const reason of outcome.incompleteReasons) why.push(`Not finished: ${reason}.`);
  if (outcome.gate.strict) for (const problem of outcome.gate.problems) why.push(`Strict gate: ${problem}.`);
  for (const error of outcome.runErrors) why.push(`Run error: ${error}.`);
  if (why.length === 0)
    why.push(
      outcome.gate.strict
        ? 'Every selected check finished, no MUST rule failed, every rule had evidence and every skip is declared.'
        : 'Every selected check finished and no MUST rule failed.',
    );
  return why.map((line) => line.replace(/\.\.$/, '.'));
}

function timingView(outcome: RunOutcome, digest: ExchangeDigest): TimingView {
  const seconds = outcome.info.durationMs / 1000;
  const slowest = [...digest.operations].sort((a, b) => b.p95Ms - a.p95Ms).slice(0, SLOWEST);
  const top = slowest[0]?.p95Ms ?? 0;
  const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
  return {
    requests: digest.requests,
    seconds: seconds.toFixed(1),
    perSecond: seconds > 0 ? (digest.requests / seconds).toFixed(1) : '0',
    slowestOperations: slowest.map((op) => ({
      operation: op.operation,
      count: op.count,
      p50: ms(op.p50Ms),
      p95: ms(op.p95Ms),
      max: ms(op.maxMs),
      percent: top > 0 ? Math.max(1, Math.round((100 * op.p95Ms) / top)) : 0,
    })),
    slowestChecks: [...outcome.tests]
      .filter((test) => test.durationMs > 0)
      .sort((a, b) => b.durationMs - a.durationMs)
      .slice(0, SLOWEST)
      .map((test) => ({ title: test.title, seconds: (test.durationMs / 1000).toFixed(2) })),
  };
}

export function reportModel(outcome: RunOutcome, digest: ExchangeDigest): ReportModel {
  const { info } = outcome;
  const failures = failureViews(outcome, digest);
  const firstFailureOf = (title: string) => failures.find((failure) => failure.check === title)?.anchor;
  const rules = outcome.rules.map((rule): RuleView => {
    const entry = findRule(rule.id);
    return {
      id: rule.id,
      anchor: anchorOf('rule', rule.id),
      level: rule.level,
      state: rule.state,
      mark: ruleMark(rule),
      title: rule.title,
      quotes: (entry?.quotes ?? []).map(textParts),
      ...(entry?.latitude ? { latitude: textParts(entry.latitude) } : {}),
      detail: ruleDetail(rule),
      checks: rule.tests.map((test) => {
        const note = checkNote(test);
        const failureAnchor = test.state === 'failed' ? firstFailureOf(test.title) : undefined;
        return {
          title: test.title,
          state: test.state,
          ...(note ? { note } : {}),
          ...(failureAnchor ? { failureAnchor } : {}),
        };
      }),
    };
  });
  const t = outcome.totals;
  const profile = info.profile as Partial<RunOutcome['info']['profile']>;
  return {
    title: `Conformance of ${info.target}: ${outcome.verdict.toUpperCase()}`,
    verdict: {
      state: outcome.verdict,
      label: outcome.verdict.toUpperCase(),
      line: verdictLine(outcome),
      why: verdictWhy(outcome),
      failedRules: outcome.rules
        .filter((rule) => rule.state === 'failed')
        .map((rule) => ({ id: rule.id, level: rule.level, anchor: anchorOf('rule', rule.id) })),
    },
    target: {
      name: info.target,
      kind: info.targetKind,
      ...(typeof profile.environment === 'string' ? { environment: profile.environment } : {}),
      ...(typeof profile.baseUrl === 'string' ? { baseUrl: profile.baseUrl } : {}),
    },
    facts: [
      { label: 'Run', value: info.runId },
      { label: 'Started', value: info.startedAt },
      { label: 'Duration', value: `${(info.durationMs / 1000).toFixed(1)} s` },
      { label: 'Seed', value: String(info.seed) },
      { label: 'Depth', value: String(info.depth) },
      { label: 'Concurrency', value: String(info.concurrency) },
      ...(info.shard ? [{ label: 'Shard', value: info.shard }] : []),
      { label: 'Strict gate', value: outcome.gate.strict ? 'on' : 'off' },
      { label: 'Suite', value: `${info.suiteVersion} (${info.suiteBuild})` },
      { label: 'Spec', value: `sha256 ${info.specHash.slice(0, 12)}` },
    ],
    totals: totalsLine(outcome),
    counts: [
      { label: 'passed', count: t.passed, state: 'passed' },
      { label: 'failed', count: t.failed, state: 'failed' },
      { label: 'inconclusive', count: t.inconclusive, state: 'inconclusive' },
      { label: 'incomplete', count: t.incomplete, state: 'incomplete' },
      { label: 'skipped', count: t.skipped, state: 'skipped' },
    ],
    glossary: GLOSSARY,
    failures,
    areas: groupByArea(rules, (rule) => rule.id).map((area) => {
      const failed = area.items.filter((rule) => rule.state === 'failed').length;
      return {
        prefix: area.prefix,
        name: area.name,
        summary: `${area.items.length} rule${area.items.length === 1 ? '' : 's'}${failed ? `, ${failed} failed` : ''}`,
        rules: area.items,
      };
    }),
    coverage: {
      summary: coverageLines(outcome.coverage)[0] ?? '',
      rows: outcome.coverage.operations.map((op) => ({
        operationId: op.operationId,
        observed: op.observedResponses.length,
        documented: op.documentedResponses.length,
        percent:
          op.documentedResponses.length === 0
            ? 100
            : Math.round((100 * op.observedResponses.length) / op.documentedResponses.length),
        missing: op.documentedResponses.filter((key) => !op.observedResponses.includes(key)),
      })),
    },
    timing: timingView(outcome, digest),
    runErrors: outcome.runErrors,
    created: outcome.created.map((item) => `${item.kind} ${item.id} (${item.rule}): ${item.cleanup}`),
  };
}
