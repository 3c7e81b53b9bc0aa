import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Killing the sandbox, or the npm/pnpm process running it (`npx cloud-api-sandbox`), leaves no
 * sandbox behind: nothing listens on its port and no process of the tree lives on. The wrappers
 * run the bin the way an installed package does: from an app whose node_modules/.bin links to it.
 */

const cliPath = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const app = mkdtempSync(join(tmpdir(), 'sandbox-orphans-'));

beforeAll(() => {
  writeFileSync(join(app, 'package.json'), '{ "name": "orphans-app", "private": true }\n');
  mkdirSync(join(app, 'node_modules', '.bin'), { recursive: true });
  // What `npm install @cloud-api/sandbox` makes: a link to the bin's file, which it marks
  // executable (a fresh build leaves it without the bit).
  chmodSync(cliPath, 0o755);
  symlinkSync(cliPath, join(app, 'node_modules', '.bin', 'cloud-api-sandbox'));
});

type Wrapper = 'no wrapper' | 'npm exec' | 'pnpm exec';

const commands: Record<Wrapper, readonly [string, readonly string[]]> = {
  'no wrapper': [process.execPath, [cliPath, '--port', '0']],
  'npm exec': ['npm', ['exec', '--offline', '--', 'cloud-api-sandbox', '--port', '0']],
  'pnpm exec': ['pnpm', ['exec', 'cloud-api-sandbox', '--port', '0']],
};

interface Entry {
  readonly pid: number;
  readonly ppid: number;
  readonly state: string;
}

function processTable(): Entry[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return [{ pid: Number(name), state: fields[0] ?? '?', ppid: Number(fields[1]) }];
      } catch {
        return [];
      }
    });
}

function descendantsOf(pid: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const entry of table)
      if (entry.ppid === parent && !found.includes(entry.pid)) {
        found.push(entry.pid);
        queue.push(entry.pid);
      }
  }
  return found;
}

function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

interface Started {
  readonly child: ChildProcess;
  readonly port: number;
  /** Every process of the tree, seen while the sandbox served. */
  readonly tree: readonly number[];
}

async function start(wrapper: Wrapper): Promise<Started> {
  const [command, args] = commands[wrapper];
  // Its own process group, so a case can signal the group the way a terminal's Ctrl-C does.
  const child = spawn(command, args, {
    cwd: app,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const up = await until(() => /listening at http:\/\/127\.0\.0\.1:\d+\/v1/.test(output), 30_000);
  if (!up) throw new Error(`the sandbox did not start under ${wrapper}: ${output}`);
  const port = Number(/listening at http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(output)?.[1]);
  return { child, port, tree: [child.pid as number, ...descendantsOf(child.pid as number)] };
}

const cases: readonly (readonly [Wrapper, NodeJS.Signals, 'process' | 'process group'])[] = [
  ['no wrapper', 'SIGINT', 'process'],
  ['no wrapper', 'SIGTERM', 'process'],
  ['no wrapper', 'SIGHUP', 'process'],
  // npm runs the bin through `sh -c`: killed, it left the shell and the sandbox running.
  ['npm exec', 'SIGTERM', 'process'],
  ['npm exec', 'SIGHUP', 'process'],
  ['npm exec', 'SIGKILL', 'process'],
  // npm passes SIGINT to that shell, which (dash) waits for the sandbox instead of passing it on: a
  // terminal's Ctrl-C, which signals the whole group, is how SIGINT reaches the sandbox there.
  ['npm exec', 'SIGINT', 'process group'],
  ['pnpm exec', 'SIGINT', 'process'],
  ['pnpm exec', 'SIGTERM', 'process'],
  ['pnpm exec', 'SIGHUP', 'process'],
  ['pnpm exec', 'SIGKILL', 'process'],
];

describe.skipIf(!existsSync('/proc/self/stat'))('no sandbox outlives what was killed', () => {
  it.concurrent.each(cases)(
    '%s: %s to the %s leaves nothing listening and no process',
    async (wrapper, signal, to) => {
      const { child, port, tree } = await start(wrapper);
      expect(tree.length).toBeGreaterThanOrEqual(wrapper === 'no wrapper' ? 1 : 2);
      expect(await listening(port)).toBe(true);
      process.kill(to === 'process group' ? -(child.pid as number) : (child.pid as number), signal);

      const freed = await until(async () => !(await listening(port)), 5_000);
      const gone = await until(() => tree.every((pid) => !isAlive(pid)), 5_000);
      const left = tree.filter(isAlive).map((pid) => `${pid} ${commandLineOf(pid)}`);
      for (const pid of tree.filter(isAlive)) process.kill(pid, 'SIGKILL');
      expect(freed, `port ${port} still accepts connections`).toBe(true);
      expect(gone, `left running: ${left.join('; ')}`).toBe(true);
    },
  );
});
