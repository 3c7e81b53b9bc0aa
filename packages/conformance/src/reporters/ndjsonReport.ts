import type { FailureReport } from '../checks/failureReport.js';
import type { ReportContext, Reporter, RunEvent } from '../run/events.js';
import type { CheckResult } from '../run/outcome.js';
import { suiteBuild, suiteVersion } from '../run/suiteVersion.js';
import { exitCodeOf } from '../run/verdict.js';
import { NDJSON_EVENTS_VERSION, type NdjsonLine } from './ndjsonEventSchema.js';

export const NDJSON_EVENTS_FILE = 'conformance-events.ndjson';

type LineOf<Type extends NdjsonLine['type']> = Omit<
  Extract<NdjsonLine, { type: Type }>,
  'version' | 'time' | 'runId'
>;
type AnyLine = { [Type in NdjsonLine['type']]: LineOf<Type> }[NdjsonLine['type']];

function failureOf(report: FailureReport): Extract<NdjsonLine, { type: 'check-end' }>['failures'] & object {
  return [
    {
      message: report.message,
      ...(report.seed !== undefined ? { seed: report.seed } : {}),
      ...(report.path !== undefined ? { path: report.path } : {}),
      ...(report.counterexample !== undefined ? { counterexample: report.counterexample } : {}),
      ...(report.replayFile !== undefined ? { replayFile: report.replayFile } : {}),
      ...(report.replayCommand !== undefined ? { replayCommand: report.replayCommand } : {}),
    },
  ];
}

function checkEnd(result: CheckResult): LineOf<'check-end'> {
  const { verdict } = result;
  const base = {
    type: 'check-end' as const,
    check: { rule: result.rule, title: result.title },
    state: verdict.state,
    durationMs: Math.max(0, result.durationMs),
    ...(result.gaps ? { gaps: result.gaps.map((gap) => ({ ...gap })) } : {}),
  };
  switch (verdict.state) {
    case 'passed':
      return base;
    case 'failed':
      return { ...base, failures: verdict.failures.flatMap(failureOf), errors: [...verdict.errors] };
    case 'inconclusive':
      return { ...base, reason: verdict.reason, ...(verdict.remedy ? { remedy: verdict.remedy } : {}) };
    case 'incomplete':
      return { ...base, reason: verdict.reason };
    case 'skipped':
      return { ...base, reason: verdict.reason, declared: verdict.declared };
  }
}

/** The line an event becomes (typed by the published schema's definition). */
function lineOf(event: RunEvent): AnyLine {
  switch (event.type) {
    case 'run-start':
      return {
        type: 'run-start',
        suiteVersion: suiteVersion(),
        suiteBuild: suiteBuild(),
        target: event.target,
        targetKind: event.targetKind as LineOf<'run-start'>['targetKind'],
        seed: event.seed,
        depth: event.depth,
        concurrency: event.concurrency,
        checks: event.checks.map(({ rule, title }) => ({ rule, title })),
      };
    case 'check-start':
      return { type: 'check-start', check: { rule: event.check.rule, title: event.check.title } };
    case 'exchange':
      // A summary: headers and bodies belong in the HAR, not in a stream meant for a log.
      return {
        type: 'exchange',
        check: { rule: event.check.rule, title: event.check.title },
        method: event.method,
        url: event.url,
        status: event.status,
        durationMs: Math.max(0, event.durationMs),
        startedAt: event.startedAt,
        ...(event.operationId ? { operationId: event.operationId } : {}),
      };
    case 'check-end':
      return checkEnd(event.result);
    case 'run-end': {
      const { outcome } = event;
      return {
        type: 'run-end',
        verdict: outcome.verdict,
        exitCode: exitCodeOf(outcome),
        durationMs: outcome.info.durationMs,
        totals: { ...outcome.totals },
        incompleteReasons: [...outcome.incompleteReasons],
        gate: { strict: outcome.gate.strict, problems: [...outcome.gate.problems] },
        rules: outcome.rules.map((rule) => ({ id: rule.id, level: rule.level, state: rule.state })),
      };
    }
  }
}

/**
 * One JSON object per line, as the run goes, for log pipelines and dashboards: on stdout, or
 * with `--out` into conformance-events.ndjson (which grows while the run runs, for `tail -f`).
 * The lines follow schema/conformance-events.schema.json.
 */
export function ndjsonReporter(): Reporter {
  let runId = '';
  let file: string | undefined;
  return {
    name: 'ndjson',
    observesExchanges: true,
    onEvent(event: RunEvent, context: ReportContext) {
      if (event.type === 'run-start') runId = event.runId;
      const line = JSON.stringify({
        version: NDJSON_EVENTS_VERSION,
        time: new Date().toISOString(),
        runId: event.type === 'run-end' ? event.outcome.info.runId : runId,
        ...lineOf(event),
      });
      if (!context.outDirChosen) return context.print(line);
      file = context.appendFile(NDJSON_EVENTS_FILE, `${line}\n`);
      if (event.type === 'run-end') context.print(`NDJSON events: ${file}`);
    },
  };
}
