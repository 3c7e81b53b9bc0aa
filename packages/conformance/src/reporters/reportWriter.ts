import type { RunOutcome } from './runOutcome.js';

/** An output plug-in: turns a finished run into text on the console or a file. */
export interface ReportWriter {
  readonly name: string;
  write(outcome: RunOutcome, context: { outDir: string; print: (text: string) => void }): void;
}
