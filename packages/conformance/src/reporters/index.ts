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

/** What is wrong with the reporters named (an unknown name; two writing stdout at once), if anything. */
export function reportersProblem(names: readonly string[], outDirChosen: boolean): string | undefined {
  // Own keys only: `--reporter constructor` is not a reporter.
  const unknown = names.find((name) => !Object.hasOwn(reporterRegistry, name));
  if (unknown !== undefined)
    return `--reporter ${unknown}: unknown reporter; use one of ${Object.keys(reporterRegistry).join(', ')}`;
  // Without --out the stream is stdout, where every other reporter prints too (a report, or the
  // path of the file it wrote): one line that is not an event would break every reader.
  const others = [...new Set(names)].filter((name) => name !== 'ndjson');
  if (!outDirChosen && names.includes('ndjson') && others.length > 0)
    return `--reporter ndjson,${others.join(',')}: without --out the NDJSON stream is stdout, where ${others.join(', ')} would print too; pass --out DIR (ndjson then writes conformance-events.ndjson there) or choose ndjson alone`;
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
