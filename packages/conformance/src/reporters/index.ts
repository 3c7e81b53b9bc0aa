import type { Reporter } from '../run/events.js';
import { jsonReport } from './jsonReport.js';
import { junitReport } from './junitReport.js';
import { markdownReport } from './markdownReport.js';
import { tableReport } from './tableReport.js';

/** The reporters `--reporter NAME` selects. */
export const reporterRegistry: Readonly<Record<string, Reporter>> = {
  table: tableReport,
  json: jsonReport,
  junit: junitReport,
  markdown: markdownReport,
};

export { JSON_REPORT_FILE } from './jsonReport.js';
export { progressReporter } from './progressReporter.js';
export { outcomeReporter, reportContext } from './reportContext.js';
