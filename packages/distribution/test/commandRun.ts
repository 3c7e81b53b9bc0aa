import { type ChildProcess, spawn } from 'node:child_process';

export interface CommandResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment of a command run in the installed app: only what a user's shell would have,
 * not the `npm_config_*` / pnpm variables of this test run, and npm kept offline (npx must find
 * the installed bins, never fetch).
 */
export function appEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/** A shell command line (as written in the README) started in `cwd`. */
export class RunningCommand {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly done: Promise<CommandResult>;

  constructor(commandLine: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
    // Its own process group, so `interrupt` can signal the whole group as a terminal's Ctrl-C
    // does (npx forwards no signal to the command it runs when stdin is not a terminal).
    this.child = spawn('/bin/sh', ['-c', `exec ${commandLine}`], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const timer = setTimeout(() => this.signalGroup('SIGKILL'), timeoutMs);
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.done = new Promise((resolve, reject) => {
      this.child.on('error', reject);
      this.child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  /** Ctrl-C: SIGINT to every process of the command (npx and the program it runs). */
  interrupt(): Promise<CommandResult> {
    this.signalGroup('SIGINT');
    return this.done;
  }

  signalGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined || this.child.exitCode !== null || this.child.signalCode !== null)
      return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // Already gone.
    }
  }

  /** Resolves with the first match of `pattern` in stdout; rejects if the command ends first. */
  async waitFor(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const match = this.stdout.match(pattern);
      if (match) return match;
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`ended before printing ${pattern}:\n${this.stdout}\n${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${this.stdout}\n${this.stderr}`);
  }
}

/** Runs a command line to its end. */
export function runCommand(
  commandLine: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 120_000,
): Promise<CommandResult> {
  return new RunningCommand(commandLine, cwd, env, timeoutMs).done;
}
