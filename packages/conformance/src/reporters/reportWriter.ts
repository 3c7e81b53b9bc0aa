import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretRedactor } from '../secrets/secretRedactor.js';
import type { RunOutcome } from './runOutcome.js';

/**
 * What a report writer may do. Both ways out pass through the run's redactor, so a writer
 * cannot put a secret on the console or into a file, whatever its outcome holds.
 */
export interface ReportContext {
  readonly outDir: string;
  print(text: string): void;
  /** Writes `name` under the output directory and returns its path. */
  writeFile(name: string, text: string): string;
}

/** An output plug-in: turns a finished run into text on the console or a file. */
export interface ReportWriter {
  readonly name: string;
  write(outcome: RunOutcome, context: ReportContext): void;
}

export function reportContext(
  outDir: string,
  print: (text: string) => void,
  redactor: SecretRedactor,
): ReportContext {
  return {
    outDir,
    print: (text) => print(redactor.redact(text)),
    writeFile(name, text) {
      mkdirSync(outDir, { recursive: true });
      const file = join(outDir, name);
      writeFileSync(file, redactor.redact(text));
      return file;
    },
  };
}
