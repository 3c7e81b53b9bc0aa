import type { ReportWriter } from './reportWriter.js';

export const JSON_REPORT_FILE = 'conformance-report.json';

export const jsonReport: ReportWriter = {
  name: 'json',
  write(outcome, { writeFile, print }) {
    const file = writeFile(
      JSON_REPORT_FILE,
      `${JSON.stringify({ kind: 'conformance-report', ...outcome }, null, 2)}\n`,
    );
    print(`JSON report: ${file}`);
  },
};
