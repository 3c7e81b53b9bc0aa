import { mkdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Kernel and device file systems: writing a report there blocks, spins or touches the machine. */
const SPECIAL_ROOTS = ['/proc', '/sys', '/dev'];

/** The existing part of a path, resolved through links (the rest is yet to be created). */
function existingRealPath(path: string): string {
  let current = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(current), ...rest);
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      rest.unshift(current.slice(parent.length + 1));
      current = parent;
    }
  }
}

/**
 * Makes sure `--out` is a directory the run can write to, before any request is sent: a run
 * that cannot write its reports must not spend the target's time (or its own) first. Returns
 * a problem to show, or undefined when the directory is ready.
 */
export function outputDirectoryProblem(path: string): string | undefined {
  const real = existingRealPath(path);
  const special = SPECIAL_ROOTS.find((root) => real === root || real.startsWith(`${root}/`));
  if (special)
    return `--out ${path}: ${special} is a kernel or device file system, not a place for reports. Pass a directory you can write to, e.g. --out reports.`;
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR')
      return `--out ${path}: a file stands there (or in its path), not a directory. Pass a directory, e.g. --out reports.`;
    return `--out ${path}: cannot create it (${code ?? (error as Error).message}). Pass a directory you can write to.`;
  }
  if (!statSync(path).isDirectory())
    return `--out ${path}: not a directory. Pass a directory, e.g. --out reports.`;
  const probe = join(path, `.conformance-write-check-${process.pid}`);
  try {
    writeFileSync(probe, '', { flag: 'wx' });
    rmSync(probe, { force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `--out ${path}: the directory is not writable (${code ?? (error as Error).message}). Pass a directory you can write to.`;
  }
  return undefined;
}
