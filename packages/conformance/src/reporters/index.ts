import type { Reporter } from '../run/events.js';
import { harReporter } from './harReport.js';
import { htmlReporter } from './html/htmlReport.js';
import { jsonReport } from './jsonReport.js';
import { junitReport } from './junitReport.js';
import { markdownReport } from './markdownReport.js';
import { ndjsonReporter } from './ndjsonReport.js';
import { tableReport } from './tableReport.js';

/**
 * The reporters `--reporter NAME` selects, as factories: a reporter that gathers a run's events
 * (html, har, ndjson) keeps them for one run only, so each run gets its own.
 */
export const reporterRegistry: Readonly<Record<string, () => Reporter>> = {
  table: () => tableReport,
  json: () => jsonReport,
  junit: () => junitReport,
  markdown: () => markdownReport,
  html: htmlReporter,
  har: harReporter,
  ndjson: ndjsonReporter,
};

/** Reporters whose output is stdout when no `--out` is given: two of them would mix their text there. */
const STDOUT_WITHOUT_OUT = new Set(['table', 'json', 'ndjson']);

/** What is wrong with the reporters named (an unknown name; two writing stdout at once), if anything. */
export function reportersProblem(names: readonly string[], outDirChosen: boolean): string | undefined {
  // Own keys only: `--reporter constructor` is not a reporter.
  const unknown = names.find((name) => !Object.hasOwn(reporterRegistry, name));
  if (unknown !== undefined)
    return `--reporter ${unknown}: unknown reporter; use one of ${Object.keys(reporterRegistry).join(', ')}`;
  const onStdout = [...new Set(names)].filter((name) => STDOUT_WITHOUT_OUT.has(name));
  if (!outDirChosen && names.includes('ndjson') && onStdout.length > 1)
    return `--reporter ${onStdout.join(',')}: without --out each of them writes to stdout, where the NDJSON stream would be mixed with other text; pass --out DIR (ndjson then writes conformance-events.ndjson there) or choose ndjson alone`;
  return undefined;
}

/** A fresh reporter of a name `reportersProblem` accepted. */
export function createReporter(name: string): Reporter {
  const create = reporterRegistry[name];
  if (!create || !Object.hasOwn(reporterRegistry, name)) throw new Error(`no reporter ${name}`);
  return create();
}

export { JSON_REPORT_FILE } from './jsonReport.js';
export { progressReporter } from './progressReporter.js';
export { outcomeReporter, reportContext } from './reportContext.js';
