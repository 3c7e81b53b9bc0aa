/**
 * A report that could not be written (the --out directory removed or filled up during the run, a
 * path that cannot be a file): one line naming the file and the system's reason, never a stack
 * trace; the CLI exits 2, as for an --out refused before the run.
 */
export class ReportWriteError extends Error {
  constructor(file: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException)?.code;
    super(
      `cannot write ${file} (${code ?? (cause instanceof Error ? cause.message : String(cause))}). Pass --out a directory you can write to, with room for the reports.`,
    );
    this.name = 'ReportWriteError';
  }
}
