import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportContext, Reporter } from '../run/events.js';
import type { RunOutcome } from '../run/outcome.js';
import type { SecretRedactor } from '../secrets/secretRedactor.js';

/**
 * A reporter's way out. Both pass through the run's redactor, so a reporter cannot put a secret
 * on the console or into a file, whatever its events hold.
 */
export function reportContext(
  outDir: string,
  print: (text: string) => void,
  redactor: SecretRedactor,
  outDirChosen = true,
): ReportContext {
  return {
    outDir,
    outDirChosen,
    print: (text) => print(redactor.redact(text)),
    writeFile(name, text) {
      mkdirSync(outDir, { recursive: true });
      const file = join(outDir, name);
      writeFileSync(file, redactor.redact(text));
      return file;
    },
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
