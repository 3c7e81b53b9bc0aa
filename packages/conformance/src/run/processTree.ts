import { readdirSync, readFileSync } from 'node:fs';

/** The pids of every process below `pid` (Linux /proc; elsewhere none are found). */
export function descendantPids(pid: number = process.pid): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    let children: number[] = [];
    try {
      for (const task of readdirSync(`/proc/${parent}/task`))
        children = children.concat(
          readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8')
            .split(/\s+/)
            .filter(Boolean)
            .map(Number),
        );
    } catch {
      // Gone already, or no /proc: nothing to follow.
    }
    for (const child of children) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Kills every process the run started (the workers running the checks, a Prism mock), so none
 * outlives the CLI: used when the CLI must exit at once (a second Ctrl-C) or after a normal end.
 */
export function killDescendants(signal: NodeJS.Signals = 'SIGKILL'): number {
  const pids = descendantPids();
  for (const pid of pids.reverse()) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
  return pids.length;
}
