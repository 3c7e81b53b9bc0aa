import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportContext, Reporter } from '../run/events.js';
import type { RunOutcome } from '../run/outcome.js';
import type { SecretRedactor } from '../secrets/secretRedactor.js';
import { ReportWriteError } from './reportWriteError.js';

/** A report context, and the files its reporters wrote (a run keeps a temporary directory that holds one). */
export interface RunReportContext extends ReportContext {
  readonly written: ReadonlySet<string>;
}

/**
 * A reporter's way out. Every one passes through the run's redactor, so a reporter cannot put a
 * secret on the console or into a file, whatever its events hold.
 */
export function reportContext(
  outDir: string,
  print: (text: string) => void,
  redactor: SecretRedactor,
  outDirChosen = true,
): RunReportContext {
  const written = new Set<string>();
  /** Writes through `write`, any failure of the file system turned into one clear ReportWriteError. */
  const writing = (name: string, write: (file: string, fresh: boolean) => void): string => {
    const file = join(outDir, name);
    try {
      mkdirSync(outDir, { recursive: true });
      write(file, !written.has(file));
    } catch (error) {
      throw new ReportWriteError(file, error);
    }
    written.add(file);
    return file;
  };
  return {
    outDir,
    outDirChosen,
    written,
    print: (text) => print(redactor.redact(text)),
    writeFile: (name, text) => writing(name, (file) => writeFileSync(file, redactor.redact(text))),
    // The first append of a run starts the file: a reused name never carries another run's lines.
    appendFile: (name, text) =>
      writing(name, (file, fresh) => (fresh ? writeFileSync : appendFileSync)(file, redactor.redact(text))),
  };
}

/** A reporter that writes once, from the finished run's outcome (table, JSON, JUnit, Markdown). */
export function outcomeReporter(definition: {
  readonly name: string;
  write(outcome: RunOutcome, context: ReportContext): void;
}): Reporter {
  return {
    name: definition.name,
    onEvent(event, context) {
      if (event.type === 'run-end') definition.write(event.outcome, context);
    },
  };
}
