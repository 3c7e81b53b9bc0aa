import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

// Both CLIs watch their launcher: the conformance CLI imports this module through the
// `@cloud-api/sandbox/launcher-watch` export (it depends on the sandbox already), so one copy
// decides when a command whose package manager was killed stops.

/** The package manager process that started this one, as /proc shows it. */
export interface Launcher {
  readonly pid: number;
  readonly name: string;
  /** Clock ticks after boot at which it started: a reused pid is another process. */
  readonly startTime: string;
}

/** A program or script of a package manager that runs bins: `npm exec`, `npx`, `pnpm exec`, `yarn`. */
const PACKAGE_MANAGER = /^(?:npm|npx|pnpm|pnpx|yarn)(?:-cli)?(?:\.c?js|\.mjs)?$/;

interface ProcessStat {
  readonly ppid: number;
  readonly state: string;
  readonly startTime: string;
}

function statOf(pid: number): ProcessStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields start after the last one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '?', ppid: Number(fields[1]), startTime: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

function packageManagerName(pid: number): string | undefined {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    // `npm` itself, `node …/npm-cli.js`, `node …/pnpm.cjs`, or the title npm gives itself
    // (`npm exec cloud-api-sandbox`, one string where argv was).
    return argv
      .slice(0, 2)
      .flatMap((arg) => [basename(arg), basename(arg.split(' ')[0] ?? '')])
      .find((name) => PACKAGE_MANAGER.test(name));
  } catch {
    return undefined;
  }
}

/**
 * The nearest package manager among this process's ancestors, when it was started through one
 * (Linux; elsewhere none is found). `npm exec` runs a bin through `sh -c`, and when npm is killed
 * with SIGTERM or SIGHUP the shell, or the shell and the bin, live on without it.
 */
export function findLauncher(env: NodeJS.ProcessEnv = process.env): Launcher | undefined {
  if (!env.npm_config_user_agent && !env.npm_execpath) return undefined;
  let pid = process.ppid;
  for (let depth = 0; depth < 8 && pid > 1; depth++) {
    const stat = statOf(pid);
    if (!stat) return undefined;
    const name = packageManagerName(pid);
    if (name) return { pid, name, startTime: stat.startTime };
    pid = stat.ppid;
  }
  return undefined;
}

/** Whether the launcher still runs (a zombie has ended; a new process with its pid is another). */
export function launcherAlive(launcher: Launcher): boolean {
  const stat = statOf(launcher.pid);
  return stat !== undefined && stat.state !== 'Z' && stat.startTime === launcher.startTime;
}

/**
 * Calls `onGone` once the package manager that started this process is gone. A package manager
 * running a bin waits for it, so it ends first only when it was killed: whoever killed it meant
 * the command too (a sandbox must not stay behind listening, a run must not go on sending
 * requests with nobody to read its verdict). A command started without one (`node cli.js`, a
 * service manager, `nohup`) is never stopped this way. The timer does not hold the process open.
 */
export function watchLauncher(onGone: (launcher: Launcher) => void, intervalMs = 500): Launcher | undefined {
  const launcher = findLauncher();
  if (!launcher) return undefined;
  const timer = setInterval(() => {
    if (launcherAlive(launcher)) return;
    clearInterval(timer);
    onGone(launcher);
  }, intervalMs);
  timer.unref();
  return launcher;
}
