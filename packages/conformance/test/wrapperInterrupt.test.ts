import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunOutcome } from '../src/run/outcome.js';
import { commandLineOf, descendantsOf, isAlive } from './processTree.js';
import { cliPath } from './runCli.js';

/**
 * Runs go through wrappers: `pnpm conformance`, `pnpm --filter … exec`, `npx cloud-api-conformance`.
 * A signal to the wrapper's process alone (a process manager, a CI runner cancelling a step) must
 * still end the run with its JSON report written and marked interrupted, and leave no process.
 */

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const repositoryRoot = join(packageDir, '..', '..');

interface WrappedRun {
  readonly child: ChildProcess;
  readonly out: string;
  readonly stderr: () => string;
  /** Every process of the run, seen while it ran. */
  readonly seen: Set<number>;
  readonly closed: Promise<void>;
}

function startWrapped(command: string, args: readonly string[], cwd: string, out: string): WrappedRun {
  const child = spawn(command, [...args, '--depth', '200', '--reporter', 'json', '--out', out], {
    cwd,
    // Its own process group: only the wrapper's process gets the signal, as from a process manager.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  child.stdout?.resume();
  const seen = new Set<number>();
  const watch = setInterval(() => {
    if (child.pid) for (const pid of descendantsOf(child.pid)) seen.add(pid);
  }, 50);
  const kill = setTimeout(() => {
    for (const pid of [...seen, child.pid ?? 0]) if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  }, 60_000);
  // Closed once every process holding its pipes (the wrapper and the CLI) has exited.
  const closed = new Promise<void>((resolve) =>
    child.on('close', () => {
      clearInterval(watch);
      clearTimeout(kill);
      resolve();
    }),
  );
  return { child, out, stderr: () => stderr, seen, closed };
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Once a check has finished, the run is in its checks (the CLI prints one line per check). */
const checksRunning = (run: WrappedRun) => /^ {2}(passed|failed|skipped) /m.test(run.stderr());

async function interruptWrapper(run: WrappedRun, signal: NodeJS.Signals): Promise<RunOutcome> {
  await until(() => checksRunning(run), 'the checks to start');
  process.kill(run.child.pid as number, signal);
  await run.closed;
  // The wrapper may end before the CLI (pnpm can exit first; npm leaves it behind): the run is
  // over once every process of it has ended, its report written.
  await until(() => [...run.seen].every((pid) => !isAlive(pid)), 'every process of the run to end').catch(
    () => undefined,
  );
  const left = [...run.seen].filter(isAlive).map((pid) => `${pid} ${commandLineOf(pid)}`);
  expect(left, 'processes of the run left running').toEqual([]);
  const report = join(run.out, 'conformance-report.json');
  expect(existsSync(report), `no JSON report; stderr: ${run.stderr().slice(-2000)}`).toBe(true);
  expect(run.stderr()).not.toMatch(/\n\s+at /);
  return JSON.parse(readFileSync(report, 'utf8')) as RunOutcome;
}

/** Checks the report says the run was interrupted by one of `signals`; returns which. */
function expectInterrupted(report: RunOutcome, signals: readonly string[]): string | undefined {
  expect(report.verdict).toBe('incomplete');
  const reason = report.incompleteReasons.find((text) => text.startsWith('the run was interrupted'));
  expect(signals.map((signal) => `the run was interrupted (${signal})`)).toContain(reason);
  const signal = /\((SIG[A-Z]+)\)/.exec(reason ?? '')?.[1];
  expect(report.tests.some((test) => (test.reason ?? '').includes(`interrupted (${signal})`))).toBe(true);
  expect(report.tests.filter((test) => test.state === 'skipped')).toEqual([]);
  return signal;
}

describe.skipIf(!existsSync('/proc/self/stat'))('a signal to the wrapper running the CLI', () => {
  it('SIGINT to `pnpm --filter @cloud-api/conformance exec`: 8 runs of 8 leave the JSON report, interrupted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-wrapper-pnpm-'));
    const stoppedBy: string[] = [];
    for (let attempt = 1; attempt <= 8; attempt++) {
      const run = startWrapped(
        'pnpm',
        ['--filter', '@cloud-api/conformance', 'exec', 'node', cliPath],
        repositoryRoot,
        join(dir, `run-${attempt}`),
      );
      const report = await interruptWrapper(run, 'SIGINT');
      // pnpm passes the interrupt on to the CLI as SIGTERM, or exits before it has: then the CLI
      // sees it gone and stops as for SIGHUP.
      stoppedBy.push(expectInterrupted(report, ['SIGTERM', 'SIGHUP']) ?? '?');
    }
    console.info(
      `pnpm exec and SIGINT: ${stoppedBy.filter((signal) => signal === 'SIGTERM').length} of 8 runs got SIGTERM from pnpm, ${stoppedBy.filter((signal) => signal === 'SIGHUP').length} stopped on seeing pnpm gone`,
    );
  }, 120_000);

  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '%s to npm running `npm exec cloud-api-conformance` (the shell between them dies or stays): the run stops, its report written',
    async (signal) => {
      const app = mkdtempSync(join(tmpdir(), 'conformance-wrapper-npm-'));
      writeFileSync(join(app, 'package.json'), '{ "name": "wrapper-app", "private": true }\n');
      mkdirSync(join(app, 'node_modules', '.bin'), { recursive: true });
      // What `npm install @cloud-api/conformance` makes: a link to the bin's file, which it marks
      // executable (a fresh build leaves it without the bit).
      chmodSync(cliPath, 0o755);
      symlinkSync(cliPath, join(app, 'node_modules', '.bin', 'cloud-api-conformance'));
      const run = startWrapped(
        'npm',
        ['exec', '--offline', '--', 'cloud-api-conformance'],
        app,
        join(app, 'out'),
      );
      const report = await interruptWrapper(run, signal);
      // npm's own SIGTERM reaches only the shell; the CLI stops when it sees npm gone, as for SIGHUP.
      expectInterrupted(report, ['SIGHUP']);
      expect(run.stderr()).toMatch(/npm \(pid \d+\), which started this run, is gone/);
    },
    60_000,
  );

  it("a Ctrl-C during `pnpm conformance`'s build step ends the command there, even when the build finishes anyway", async () => {
    // A build that ignores the interrupt and succeeds: what a shell running `turbo && node cli`
    // saw when turbo was just finishing, and then went on to run the suite.
    const bin = mkdtempSync(join(tmpdir(), 'conformance-wrapper-build-'));
    writeFileSync(join(bin, 'turbo'), "#!/bin/sh\ntrap '' INT TERM\nsleep 2\nexit 0\n");
    chmodSync(join(bin, 'turbo'), 0o755);
    const child = spawn(
      process.execPath,
      [join(repositoryRoot, 'scripts', 'conformance.mjs'), '--rules', 'WS-1'],
      {
        cwd: repositoryRoot,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await new Promise((resolve) => setTimeout(resolve, 700));
    process.kill(-(child.pid as number), 'SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('Interrupted (SIGINT) before the run started: nothing was sent.');
    expect(stdout).toBe('');
  }, 30_000);
});
