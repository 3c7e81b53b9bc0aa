import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportWriter } from './reportWriter.js';

export const JSON_REPORT_FILE = 'conformance-report.json';

export const jsonReport: ReportWriter = {
  name: 'json',
  write(outcome, { outDir, print }) {
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, JSON_REPORT_FILE);
    writeFileSync(file, `${JSON.stringify({ kind: 'conformance-report', ...outcome }, null, 2)}\n`);
    print(`JSON report: ${file}`);
  },
};
