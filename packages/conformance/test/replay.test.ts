import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileSecrets, scopeNames } from '../src/targetProfile/index.js';
import type { RunningTarget } from '../src/targets/runningTarget.js';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  startSandboxTarget,
} from '../src/targets/sandboxTarget.js';
import { cliPath, runCli } from './runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'conformance-replay-'));
const profileFile = join(dir, 'faulty target.json');
let faulty: RunningTarget;
let secrets: string[] = [];

/** A target profile file for a sandbox that serves workspace_id=0 (it breaks WS-2). */
beforeAll(async () => {
  const sandbox = await loadSandboxModule();
  const profile = embeddedSandboxProfile(sandbox.defaultSandboxProfile(), scopeNames());
  faulty = await startSandboxTarget(profile, { fault: 'accept-zero-workspace-id' });
  writeFileSync(profileFile, JSON.stringify({ ...profile, name: 'faulty staging', baseUrl: faulty.baseUrl }));
  secrets = profileSecrets(profile);
});
afterAll(() => faulty?.stop());

/** Runs a command line through sh, as a user pasting it would (not blocking: the target is in this process). */
function shell(
  line: string,
  cwd?: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], { stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The run whose WS-2 failure the replays below record: the faulty target serves workspace_id=0. */
const WS2_SEED_5 = ['--rules', 'WS-2', '--depth', '3', '--seed', '5'] as const;

/** Runs WS-2 (seed 5) against the target `profile` names and returns the replay file of its failure. */
async function recordedWs2Failure(profile: string, outName: string): Promise<string> {
  const out = join(dir, outName);
  await runCli(['--target', profile, ...WS2_SEED_5, '--reporter', 'json', '--out', out]);
  return (
    readFileSync(join(out, 'conformance-report.json'), 'utf8').match(/"replayFile": "([^"]+)"/)?.[1] ?? ''
  );
}

describe('replay: the printed line reproduces the failure where it was seen', () => {
  it('prints a replay line naming the target, which run as printed in a shell fails the same rule (exit 1)', async () => {
    const out = join(dir, 'out');
    const run = await runCli(['--target', profileFile, ...WS2_SEED_5, '--out', out]);
    expect(run.code).toBe(1);
    const line = /replay: (.+)$/m.exec(run.stdout)?.[1] ?? '';
    expect(line).toContain(`--target '${profileFile}'`);
    expect(line.startsWith(`node ${cliPath} --replay /`)).toBe(true);

    // As printed, in a shell, from another directory: the failure is seen again, on the same target.
    const replay = await shell(line, mkdtempSync(join(tmpdir(), 'conformance-replay-elsewhere-')));
    expect(replay.status, replay.stderr).toBe(1);
    expect(replay.stdout).toMatch(/WS-2\s+MUST\s+FAIL/);
    expect(replay.stdout).toMatch(/answered 2\d\d, expected a 4xx for workspace_id/);
    const file = /--replay (\S+)/.exec(line)?.[1] ?? '';
    const recorded = JSON.parse(readFileSync(file, 'utf8')) as {
      target: { target: string; profileDigest: string };
    };
    expect(recorded.target.target).toBe(profileFile);
    expect(recorded.target.profileDigest).toMatch(/^[0-9a-f]{16}$/);
    for (const text of [run.stdout, run.stderr, replay.stdout, replay.stderr, readFileSync(file, 'utf8')])
      for (const secret of secrets) expect(text.includes(secret), 'a token leaked').toBe(false);
  });

  it('replays elsewhere only when --target says so, and says it', async () => {
    const file = await recordedWs2Failure(profileFile, 'out-elsewhere');
    const elsewhere = await runCli(['--replay', file, '--target', 'sandbox']);
    expect(elsewhere.stderr).toMatch(
      /Replaying against sandbox, not .*faulty target\.json where the failure was recorded/,
    );
    expect(elsewhere.code).toBe(0);
  });

  it('a replay on the recorded target whose check now passes is no pass: it cannot tell a fix from a failure that needed the checks before it (exit 3)', async () => {
    const fixable = join(dir, 'fixable target.json');
    writeFileSync(fixable, readFileSync(profileFile));
    const file = await recordedWs2Failure(fixable, 'out-fixed');
    expect(file).not.toBe('');
    // The same profile file, now naming a target without the fault.
    const sandbox = await loadSandboxModule();
    const profile = embeddedSandboxProfile(sandbox.defaultSandboxProfile(), scopeNames());
    const correct = await startSandboxTarget(profile);
    try {
      writeFileSync(fixable, JSON.stringify({ ...profile, name: 'fixed staging', baseUrl: correct.baseUrl }));
      const fixed = await runCli(['--replay', file]);
      expect(fixed.stdout).toMatch(
        /Verdict: INCOMPLETE — not a pass: the recorded WS-2 failure did not reproduce when replayed alone, which does not tell a fix from a failure that needed what other checks did before it \(run the whole suite with --seed 5 to tell\)/,
      );
      expect(fixed.code).toBe(3);
    } finally {
      await correct.stop();
    }
  });

  it('an old replay file without a target asks for --target instead of replaying on the embedded sandbox', async () => {
    const old = join(dir, 'old-replay.json');
    writeFileSync(
      old,
      JSON.stringify({
        kind: 'conformance-replay',
        rule: 'WS-2',
        test: 'WS-2 rejects zero, negative and non-numeric workspace_id on every operation (any 4xx)',
        seed: 5,
        path: '0',
      }),
    );
    const run = await runCli(['--replay', old]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/does not record its target \(written by an older version\); pass --target/);
  });
});

describe('an answer RESP-1 audits, seen during another rule', () => {
  it('prints a reproduction that, run as printed, fails RESP-1 again (the audit comes only with RESP-1 selected)', async () => {
    const run = await runCli([
      '--sandbox-fault',
      'acceptance-status-given-twice',
      '--rules',
      'ASYNC-1',
      '--seed',
      '11',
    ]);
    // ASYNC-1 alone leaves the audit out: the answer is read as "accepted" and the rule passes.
    expect(run.code).toBe(0);
    const full = await runCli([
      '--sandbox-fault',
      'acceptance-status-given-twice',
      '--rules',
      'ASYNC-1,RESP-1',
      '--seed',
      '11',
    ]);
    expect(full.code).toBe(1);
    const printed = /reproduce with (--rules \S+ --seed \d+)/.exec(full.stdout)?.[1] ?? '';
    expect(printed).toBe('--rules ASYNC-1,RESP-1 --seed 11');
    const again = await runCli(['--sandbox-fault', 'acceptance-status-given-twice', ...printed.split(' ')]);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/RESP-1\s+MUST\s+FAIL/);
    expect(again.stdout).toMatch(/\$\.status is given twice, as "queued" and "accepted"/);
  });
});
