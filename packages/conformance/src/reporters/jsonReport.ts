import type { Reporter } from '../run/events.js';
import { outcomeReporter } from './reportContext.js';

export const JSON_REPORT_FILE = 'conformance-report.json';

export const jsonReport: Reporter = outcomeReporter({
  name: 'json',
  write(outcome, { writeFile, print }) {
    const file = writeFile(
      JSON_REPORT_FILE,
      `${JSON.stringify({ kind: 'conformance-report', ...outcome }, null, 2)}\n`,
    );
    print(`JSON report: ${file}`);
  },
});
