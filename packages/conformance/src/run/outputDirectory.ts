import {
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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

/** The outermost directory of `path` that does not exist yet (what creating it will make), if any. */
export function firstMissingDirectory(path: string): string | undefined {
  let missing: string | undefined;
  for (let current = resolve(path); !existsSync(current); current = dirname(current)) {
    missing = current;
    if (dirname(current) === current) break;
  }
  return missing;
}

/** Removes `dir` when it holds nothing but empty directories (what a refused run made). */
export function removeIfEmpty(dir: string): void {
  const empty = (path: string): boolean =>
    readdirSync(path, { withFileTypes: true }).every(
      (entry) => entry.isDirectory() && empty(join(path, entry.name)),
    );
  try {
    if (existsSync(dir) && empty(dir)) rmSync(dir, { recursive: true });
  } catch {
    // Whatever could not be read or removed stays: the run's verdict does not depend on it.
  }
}

/** What a run writes under `--out`; anything else there is the user's and stays. */
const RUN_OUTPUTS = [
  'conformance-report.json',
  'conformance-junit.xml',
  'conformance-summary.md',
  'conformance-report.html',
  'conformance.har',
  'conformance-events.ndjson',
  'replays',
  'created.jsonl',
];

/**
 * Moves what an earlier run left in `outDir` into `outDir/previous-runs/<when>/`, so a reused
 * `--out` never mixes two runs' files and nothing is lost (a created-resources log names what an
 * earlier run left on a real target). Returns where they went, if anywhere.
 */
export function setAsideEarlierRun(outDir: string): string | undefined {
  const earlier = RUN_OUTPUTS.filter((name) => existsSync(join(outDir, name)));
  if (earlier.length === 0) return undefined;
  const when = statSync(join(outDir, earlier[0] as string))
    .mtime.toISOString()
    .replace(/[:.]/g, '-');
  let target = join(outDir, 'previous-runs', when);
  for (let n = 2; existsSync(target); n++) target = join(outDir, 'previous-runs', `${when}-${n}`);
  mkdirSync(target, { recursive: true });
  for (const name of earlier) renameSync(join(outDir, name), join(target, name));
  return target;
}
