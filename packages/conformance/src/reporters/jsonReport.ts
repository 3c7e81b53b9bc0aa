import type { Reporter } from '../run/events.js';
import { outcomeReporter } from './reportContext.js';

export const JSON_REPORT_FILE = 'conformance-report.json';

export const jsonReport: Reporter = outcomeReporter({
  name: 'json',
  write(outcome, { writeFile, print, outDirChosen }) {
    const json = JSON.stringify({ kind: 'conformance-report', ...outcome }, null, 2);
    // Without --out the report is the output: on stdout, for a pipe.
    if (!outDirChosen) return print(json);
    print(`JSON report: ${writeFile(JSON_REPORT_FILE, `${json}\n`)}`);
  },
});
