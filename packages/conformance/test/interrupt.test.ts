import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRAPPER_COPY_MS } from '../src/run/interruptPolicy.js';
import type { RunOutcome } from '../src/run/outcome.js';
import { profileSecrets, scopeNames, type TargetProfile } from '../src/targetProfile/index.js';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  startSandboxTarget,
} from '../src/targets/sandboxTarget.js';
import { forwardTo, type LocalServer, listenLocally } from './localServer.js';
import { commandLineOf, descendantsOf, isAlive } from './processTree.js';
import { cliPath } from './runCli.js';

interface WatchedRun {
  readonly child: ChildProcess;
  readonly output: { stdout: string; stderr: string };
  /** Every process the CLI started, seen while it ran. */
  readonly seen: Set<number>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

// In its own process group, so a test can send a signal the way a terminal's Ctrl-C does: to the
// CLI and every process it started at once.
function startCli(args: readonly string[]): WatchedRun {
  const child = spawn(process.execPath, [cliPath, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => {
    output.stdout += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output.stderr += String(chunk);
  });
  const seen = new Set<number>();
  const watch = setInterval(() => {
    if (child.pid) for (const pid of descendantsOf(child.pid)) seen.add(pid);
  }, 50);
  const kill = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('close', (code, signal) => {
      clearInterval(watch);
      clearTimeout(kill);
      resolve({ code, signal, at: Date.now() });
    }),
  );
  return { child, output, seen, exited };
}

type Recipient = 'the CLI process' | 'its process group (a terminal Ctrl-C)';
const recipients: readonly Recipient[] = ['the CLI process', 'its process group (a terminal Ctrl-C)'];

function interrupt(run: WatchedRun, recipient: Recipient): void {
  const pid = run.child.pid as number;
  process.kill(recipient === 'the CLI process' ? pid : -pid, 'SIGINT');
}

/** The CLI prints a line on stderr as each check finishes: once one has, the checks are running. */
const checksRunning = (run: WatchedRun) => /^ {2}(passed|failed|skipped) /m.test(run.output.stderr);

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === '.vite') return [];
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

interface ProxiedExchange {
  readonly method: string;
  readonly url: string;
  /** When the request reached the proxy (not when its answer came back). */
  readonly at: number;
  readonly requestBody: string;
  readonly status: number;
  responseBody: string;
}

describe('Ctrl-C (SIGINT) during a run', () => {
  let profile: TargetProfile;
  let sandbox: { baseUrl: string; stop(): Promise<void> };
  let proxy: LocalServer;
  const exchanges: ProxiedExchange[] = [];

  // A mutations-on target: the in-process sandbox behind a proxy that records every exchange.
  beforeAll(async () => {
    const module = await loadSandboxModule();
    profile = embeddedSandboxProfile(module.defaultSandboxProfile(), scopeNames());
    sandbox = await startSandboxTarget(profile);
    proxy = await listenLocally((req, res) => {
      const arrivedAt = Date.now();
      let requestBody = '';
      req.on('data', (chunk) => {
        requestBody += String(chunk);
      });
      req.on('end', () => {
        forwardTo(sandbox.baseUrl, req, res, {
          body: requestBody,
          onAnswer: (answer) => {
            const exchange: ProxiedExchange = {
              method: req.method ?? '',
              url: req.url ?? '',
              at: arrivedAt,
              requestBody,
              status: answer.statusCode ?? 0,
              responseBody: '',
            };
            exchanges.push(exchange);
            answer.on('data', (chunk) => {
              exchange.responseBody += String(chunk);
            });
          },
        });
      });
    });
  });
  afterAll(async () => {
    await proxy.close();
    await sandbox.stop();
  });

  function profileFile(dir: string): string {
    const file = join(dir, 'profile.json');
    writeFileSync(file, JSON.stringify({ ...profile, baseUrl: `${proxy.origin}/v1` }));
    return file;
  }

  it.each(recipients)(
    'stops promptly with exit code 130, reports what the run created and prints no token (SIGINT to %s)',
    async (recipient) => {
      const dir = mkdtempSync(join(tmpdir(), 'conformance-interrupt-'));
      const out = join(dir, 'out');
      const creates = () =>
        exchanges.filter(
          (e) => e.method === 'POST' && e.url.startsWith('/v1/compute/cloud-vms') && e.status === 202,
        );
      // The proxy's log is shared by every test here: count only this run's creates.
      const before = creates().length;
      const run = startCli([
        '--target',
        profileFile(dir),
        '--depth',
        '200',
        '--reporter',
        'table,json',
        '--out',
        out,
      ]);
      await until(() => creates().length > before, 'the run to create a cloud VM');
      const interruptedAt = Date.now();
      interrupt(run, recipient);
      const exit = await run.exited;

      expect(exit.code).toBe(130);
      expect(exit.at - interruptedAt).toBeLessThan(15_000);
      expect(run.output.stderr).toMatch(/Interrupted \(SIGINT\): stopping the run/);
      expect(run.output.stderr).not.toMatch(/\n\s+at /);
      // The created-resources log is written as things are created, and the report lists it.
      expect(readFileSync(join(out, 'created.jsonl'), 'utf8')).toMatch(/"kind":"cloud VM"/);
      expect(run.output.stdout).toMatch(/Created or changed by this run:\n {2}cloud VM[ ,]/);
      const report = JSON.parse(readFileSync(join(out, 'conformance-report.json'), 'utf8')) as RunOutcome;
      const failed = report.tests.filter((test) => test.state === 'failed');
      expect(report.verdict, JSON.stringify(failed, null, 1).slice(0, 3000)).toBe('incomplete');
      expect(report.incompleteReasons.join('\n')).toMatch(/run was interrupted/);
      expect(report.created.length).toBeGreaterThan(0);
      // Interrupted long before a 200-run depth could finish: the checks not reached say so, and
      // none of them (nor the one stopped mid-way) counts as passed or skipped.
      expect(
        report.tests.filter(
          (test) =>
            test.state === 'incomplete' &&
            /^not (run|finished): the run was interrupted/.test(test.reason ?? ''),
        ).length,
      ).toBeGreaterThan(0);
      expect(report.tests.filter((test) => test.state === 'skipped')).toEqual([]);

      for (const pid of run.seen)
        expect(isAlive(pid), `process ${pid} (${commandLineOf(pid)}) left running`).toBe(false);
      const texts = [
        run.output.stdout,
        run.output.stderr,
        ...filesUnder(out).map((f) => readFileSync(f, 'utf8')),
      ];
      for (const secret of profileSecrets(profile))
        for (const text of texts) expect(text.includes(secret), 'a token leaked').toBe(false);
    },
  );

  it.each(recipients)(
    'stops sending at once and puts back the NAT rule a check was changing (SIGINT to %s)',
    async (recipient) => {
      const dir = mkdtempSync(join(tmpdir(), 'conformance-interrupt-patch-'));
      const patches = () => exchanges.filter((e) => e.method === 'PATCH');
      const before = patches().length;
      const run = startCli([
        '--target',
        profileFile(dir),
        '--rules',
        'PATCH-1',
        '--depth',
        '5000',
        '--out',
        join(dir, 'out'),
      ]);
      await until(() => patches().length >= before + 5, 'PATCH-1 to change the NAT rule');
      const interruptedAt = Date.now();
      interrupt(run, recipient);
      expect((await run.exited).code).toBe(130);

      const sent = patches().slice(before);
      // The check's first PATCH is empty: its answer is the rule as it was before the run.
      const original = JSON.parse(sent[0]?.responseBody ?? '{}') as Record<string, unknown>;
      // The restore is the last PATCH that sends fields (empty ones after it read the rule back).
      const restoreSent = [...sent].reverse().find((e) => e.requestBody && e.requestBody !== '{}');
      const restore = JSON.parse(restoreSent?.requestBody ?? '{}') as Record<string, unknown>;
      expect(Object.keys(restore).length).toBeGreaterThan(0);
      for (const [field, value] of Object.entries(restore)) expect(value, field).toEqual(original[field]);
      // At most the update in flight and the restore follow the interrupt.
      // Left alone, 5,000 runs would go on PATCHing for seconds. The check stops at its next run
      // (measured: the last PATCHes, the restore among them, arrive 2-17 ms after the signal); how
      // many fit in that time depends on the machine's speed, so the bound is on time, with room
      // for a loaded machine.
      const afterInterrupt = sent.filter((e) => e.at > interruptedAt).map((e) => e.at - interruptedAt);
      expect(Math.max(0, ...afterInterrupt), 'ms from the interrupt to the last PATCH').toBeLessThan(1000);
    },
  );

  it.each(recipients)(
    'stops the Prism mock it started, mid-run and while Prism is still starting (SIGINT to %s)',
    async (recipient) => {
      const out = mkdtempSync(join(tmpdir(), 'conformance-interrupt-prism-'));
      const prismOf = (run: WatchedRun) =>
        [...run.seen].find((pid) => commandLineOf(pid).includes('prism-cli'));

      const starting = startCli(['--target', 'prism', '--out', join(out, 'starting')]);
      await until(() => prismOf(starting) !== undefined, 'Prism to be spawned');
      const prisms = [prismOf(starting)];
      interrupt(starting, recipient);
      const early = await starting.exited;
      expect(early.code).toBe(130);
      expect(starting.output.stderr).toMatch(/interrupted before the run started/);

      const midRun = startCli(['--target', 'prism', '--depth', '200', '--out', join(out, 'mid-run')]);
      await until(() => checksRunning(midRun), 'the checks to start');
      prisms.push(prismOf(midRun));
      const interruptedAt = Date.now();
      interrupt(midRun, recipient);
      const exit = await midRun.exited;
      expect(exit.code).toBe(130);
      expect(exit.at - interruptedAt).toBeLessThan(15_000);
      expect(midRun.output.stdout).toMatch(/Verdict: INCOMPLETE — not a pass: the run was interrupted/);
      expect(midRun.output.stdout).toMatch(/INCOMPLETE\s+not run: the run was interrupted/);
      // A check not reached is never shown as skipped: the only skips are the rules Prism cannot
      // check, said before the interrupt.
      const skips = midRun.output.stdout.match(/^\S+\s+\S+\s+SKIP\b.*$/gm) ?? [];
      expect(skips.filter((line) => !/prism cannot check this rule/.test(line))).toEqual([]);

      expect(prisms.every((pid) => pid !== undefined && !isAlive(pid))).toBe(true);
      for (const run of [starting, midRun])
        for (const pid of run.seen) expect(isAlive(pid), `process ${pid} left running`).toBe(false);
    },
  );

  it('a second Ctrl-C forces the exit without waiting for the cleanup, and still leaves no process behind', async () => {
    const out = mkdtempSync(join(tmpdir(), 'conformance-interrupt-forced-'));
    const run = startCli(['--target', 'prism', '--depth', '200', '--out', out]);
    await until(() => checksRunning(run), 'the checks to start');
    const prism = [...run.seen].find((pid) => commandLineOf(pid).includes('prism-cli'));
    interrupt(run, 'the CLI process');
    await until(() => /Ctrl-C again to force/.test(run.output.stderr), 'the first interrupt to be seen');
    // A second signal within WRAPPER_COPY_MS is a wrapper's copy of the first, not a user's.
    await new Promise((resolve) => setTimeout(resolve, WRAPPER_COPY_MS + 100));
    if (run.child.exitCode === null) interrupt(run, 'the CLI process');
    const exit = await run.exited;

    expect(exit.code).toBe(130);
    expect(run.output.stderr.match(/Interrupted \(SIGINT\)/g)).toHaveLength(1);
    expect(run.output.stderr).not.toMatch(/\n\s+at /);
    expect(prism).toBeDefined();
    // Prism is killed by the exit hook; give it a moment to go.
    await until(() => [...run.seen].every((pid) => !isAlive(pid)), 'every process of the run to end', 10_000);
  });

  it('a copy of the Ctrl-C moments later (pnpm passing it on to the group it shares) does not force: the report is written', async () => {
    const out = mkdtempSync(join(tmpdir(), 'conformance-interrupt-copied-'));
    const run = startCli(['--target', 'prism', '--depth', '200', '--reporter', 'json', '--out', out]);
    await until(() => checksRunning(run), 'the checks to start');
    interrupt(run, 'its process group (a terminal Ctrl-C)');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(run.child.exitCode, 'the run already ended: the copy would reach nobody').toBeNull();
    interrupt(run, 'the CLI process');
    const exit = await run.exited;
    expect(exit.code).toBe(130);
    const report = JSON.parse(readFileSync(join(out, 'conformance-report.json'), 'utf8')) as RunOutcome;
    expect(report.verdict).toBe('incomplete');
    expect(report.tests.length).toBeGreaterThan(40);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s to the CLI ends the run with the JSON report written (exit %i)', async (signal, code) => {
    const out = mkdtempSync(join(tmpdir(), `conformance-interrupt-${signal}-`));
    const run = startCli(['--target', 'prism', '--depth', '200', '--reporter', 'json', '--out', out]);
    await until(() => checksRunning(run), 'the checks to start');
    process.kill(run.child.pid as number, signal);
    const exit = await run.exited;
    expect(exit.code).toBe(code);
    const report = JSON.parse(readFileSync(join(out, 'conformance-report.json'), 'utf8')) as RunOutcome;
    expect(report.verdict).toBe('incomplete');
    expect(report.tests.some((test) => (test.reason ?? '').includes(`interrupted (${signal})`))).toBe(true);
    for (const pid of run.seen) expect(isAlive(pid), `process ${pid} left running`).toBe(false);
  });
});

describe('Ctrl-C while the CLI is still loading', () => {
  it('says nothing was sent yet and exits 130, instead of vanishing without a word', async () => {
    const slowLoad = fileURLToPath(new URL('./fixtures/slowCliLoad.mjs', import.meta.url));
    const child = spawn(process.execPath, ['--import', slowLoad, cliPath], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // The entry installs its handler at once; the main module is held back 4 s by the hook.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toBe('\nInterrupted (SIGINT) before the run started: nothing was sent.\n');
  });

  it('is not lost when it arrives while the main thread is busy loading: the run stops and exits 130', async () => {
    const busyLoad = fileURLToPath(new URL('./fixtures/busyCliLoad.mjs', import.meta.url));
    const out = mkdtempSync(join(tmpdir(), 'conformance-busy-load-'));
    const child = spawn(process.execPath, ['--import', busyLoad, cliPath, '--out', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    const busy = new Promise<void>((resolve) =>
      child.stderr?.on('data', (chunk) => {
        stderr += String(chunk);
        if (stderr.includes('busy loading')) resolve();
      }),
    );
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await busy;
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/Interrupted \(SIGINT\)/);
    expect(stdout).not.toMatch(/Verdict: PASSED/);
  });
});
