import { readdirSync, readFileSync } from 'node:fs';

interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly state: string;
}

function processTable(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name is in parentheses and may itself contain spaces or parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      entries.push({ pid: Number(name), state: fields[0] ?? '?', ppid: Number(fields[1]) });
    } catch {
      // The process ended while the table was read.
    }
  }
  return entries;
}

/** Live (non-zombie) descendants of `pid`, read from /proc (Linux). */
export function descendantsOf(pid: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const entry of table) {
      if (entry.ppid === parent && !found.includes(entry.pid)) {
        found.push(entry.pid);
        queue.push(entry.pid);
      }
    }
  }
  return found.filter(isAlive);
}

/** Whether `pid` still runs (a zombie has ended; it only waits to be reaped). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}
