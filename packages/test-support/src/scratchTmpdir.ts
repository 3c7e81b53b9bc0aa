import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A vitest global set-up: every temporary directory a test run makes (replay files, reports,
 * profiles, the sandbox's files) goes under one directory of its own, removed when the run ends.
 * Tests make thousands of them; left in the system's temporary directory they pile up run after
 * run. Set before the test workers start, TMPDIR reaches them and every process they spawn.
 */
export function scratchTmpdir(prefix: string): () => () => void {
  return () => {
    const scratch = mkdtempSync(join(tmpdir(), `${prefix}-`));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    return () => {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      rmSync(scratch, { recursive: true, force: true });
    };
  };
}
