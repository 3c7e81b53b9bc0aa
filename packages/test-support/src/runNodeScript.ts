import { type ChildProcess, spawn } from 'node:child_process';

export interface ScriptRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Milliseconds from spawn to the process's exit (before its output pipes drained). */
  readonly lifetimeMs: number;
}

export interface RunNodeScriptOptions {
  readonly cwd?: string;
  /** The child's whole environment (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Killed with SIGKILL after this long, so a hung program cannot hang the test (default 60 s). */
  readonly timeoutMs?: number;
  /** Sends `signal` once stdout contains `text`: how tests press Ctrl-C on a program that is up. */
  readonly signalWhenOutput?: { readonly text: string; readonly signal: NodeJS.Signals };
  /** Called once the child is spawned, e.g. to sample its memory while it runs. */
  readonly onStart?: (child: ChildProcess) => void;
}

/** Runs `node script ...args` to completion and collects what it printed and how it ended. */
export function runNodeScript(
  script: string,
  args: readonly string[],
  options: RunNodeScriptOptions = {},
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const spawnedAt = performance.now();
    let exitedAt: number | undefined;
    child.on('exit', () => {
      exitedAt = performance.now();
    });
    options.onStart?.(child);
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const trigger = options.signalWhenOutput;
      if (trigger && !signalled && stdout.includes(trigger.text)) {
        signalled = true;
        child.kill(trigger.signal);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, lifetimeMs: (exitedAt ?? performance.now()) - spawnedAt });
    });
  });
}
