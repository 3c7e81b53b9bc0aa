import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultSandboxProfile } from '@cloud-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOutcome } from '../src/run/outcome.js';
import { profileSecrets, type TargetProfile } from '../src/targetProfile/index.js';
import { descendantsOf, isAlive } from './processTree.js';
import { type CliRun, runCli } from './runCli.js';

/**
 * Fresh fixtures per run: a profile's provision command hands each run resources of its own, so
 * the checks that delete a VM or release an IP have evidence on every run, not only the first.
 * The target is a sandbox started on its own, as a user would (`cloud-api-sandbox --profile`),
 * seeded with more resources than one run consumes; the provision command is the example shipped
 * with the profiles, handing out unused IDs from a pool.
 */

const require = createRequire(import.meta.url);
const sandboxRoot = dirname(require.resolve('@cloud-api/sandbox/package.json'));
const sandboxCli = join(sandboxRoot, 'dist', 'cli.js');
const exampleScript = fileURLToPath(new URL('../profiles/provision.example.mjs', import.meta.url));
const STACK_TRACE = /^\s+at .+(\(.*:\d+:\d+\)|:\d+:\d+)$/m;

/** The checks that consume a listed resource: on a second run without fresh ones they are inconclusive. */
const CONSUMING = ['ASYNC-1', 'ASYNC-3', 'IDEM-2', 'BACKUP-1', 'BACKUP-2', 'RESP-2', 'STATE-1', 'REFUSE-1'];

let sandbox: ChildProcess;
let seeded: TargetProfile;
let baseUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'conformance-provision-'));

beforeAll(async () => {
  // Enough for two runs (each takes 8 GPU VMs, 5 deletable ones and 4 reserved IPs).
  seeded = defaultSandboxProfile({ resourceCount: 16 });
  const seedFile = join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seeded), { mode: 0o600 });
  sandbox = spawn(process.execPath, [sandboxCli, '--profile', seedFile, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    sandbox.stdout?.on('data', (chunk) => {
      out += String(chunk);
      const url = /listening at (\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    sandbox.on('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening: ${out}`)));
  });
});

afterAll(() => {
  sandbox?.kill('SIGTERM');
});

/** A profile of the running sandbox, tokens as `${VAR}`s, with `extra` fields (a provision command). */
function profileFile(name: string, extra: Record<string, unknown>): { file: string; env: NodeJS.ProcessEnv } {
  const env: Record<string, string> = {};
  const identities = Object.fromEntries(
    Object.entries(seeded.identities).map(([id, identity], index) => {
      env[`PROVISION_TOKEN_${index}`] = identity.token;
      return [id, { ...identity, token: `\${PROVISION_TOKEN_${index}}` }];
    }),
  );
  const { resources: _resources, revokedToken, otherEnvironmentToken, ...rest } = seeded;
  env.PROVISION_REVOKED = revokedToken ?? '';
  env.PROVISION_OTHER = otherEnvironmentToken ?? '';
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      ...rest,
      name,
      baseUrl,
      identities,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
      revokedToken: '${PROVISION_REVOKED}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
      otherEnvironmentToken: '${PROVISION_OTHER}',
      ...extra,
    }),
  );
  return { file, env: { ...process.env, ...env } };
}

async function run(
  profile: { file: string; env: NodeJS.ProcessEnv },
  out: string,
  extra: readonly string[] = [],
): Promise<CliRun> {
  return runCli(
    ['--target', profile.file, '--depth', '3', '--reporter', 'json', '--out', join(dir, out), ...extra],
    { env: profile.env, timeoutMs: 60_000 },
  );
}

const reportOf = (out: string): RunOutcome =>
  JSON.parse(readFileSync(join(dir, out, 'conformance-report.json'), 'utf8')) as RunOutcome;

function expectNoSecret(...texts: string[]): void {
  for (const secret of profileSecrets(seeded))
    for (const text of texts) expect(text.includes(secret), 'a token leaked').toBe(false);
}

describe('provision: fresh resources for every run', () => {
  it('two runs in a row against one sandbox both pass, their consuming checks with evidence, each on resources of its own', async () => {
    const { resources } = seeded;
    writeFileSync(join(dir, 'pool.json'), JSON.stringify(resources));
    const profile = profileFile('provisioned', {
      // Stale on purpose: the provision command's output replaces it.
      resources: { gpuVmIds: ['vm-gpu-0001'], deletableGpuVmIds: ['vm-gone'] },
      provision: { command: [process.execPath, exampleScript, 'pool.json'] },
    });

    const first = await run(profile, 'first', ['--strict']);
    const second = await run(profile, 'second', ['--strict']);
    for (const [name, result] of [
      ['first', first],
      ['second', second],
    ] as const) {
      expect(result.code, `${name} run: ${result.stderr}`).toBe(0);
      const report = reportOf(name);
      expect(report.verdict).toBe('passed');
      for (const rule of CONSUMING)
        expect(report.rules.find((r) => r.id === rule)?.state, rule).toBe('passed');
      expect(report.tests.filter((test) => test.state !== 'passed')).toEqual([]);
      expect(result.stderr).toMatch(/^ {2}provision: handed out vm-gpu-/m);
      expect(result.stderr).toMatch(/provision: this run uses the resources its command handed out/);
      expectNoSecret(
        result.stdout,
        result.stderr,
        readFileSync(join(dir, name, 'conformance-report.json'), 'utf8'),
      );
    }
    const handed = (name: string) => reportOf(name).info.profile.resources?.deletableGpuVmIds;
    expect(handed('first')).toEqual([
      'vm-gpu-0101',
      'vm-gpu-0102',
      'vm-gpu-0103',
      'vm-gpu-0104',
      'vm-gpu-0105',
    ]);
    expect(handed('second')).toEqual([
      'vm-gpu-0106',
      'vm-gpu-0107',
      'vm-gpu-0108',
      'vm-gpu-0109',
      'vm-gpu-0110',
    ]);

    // Without provision, a run on what the first run consumed has no evidence for those checks.
    const stale = profileFile('stale', { resources: reportOf('first').info.profile.resources });
    const third = await run(stale, 'third', ['--strict']);
    expect(third.code).toBe(1);
    for (const rule of CONSUMING)
      expect(reportOf('third').rules.find((r) => r.id === rule)?.state, rule).toBe('inconclusive');
  });

  const bad: readonly (readonly [string, Record<string, unknown>, RegExp])[] = [
    [
      'output that is not JSON',
      { command: [process.execPath, '-e', 'console.log("Creating 3 VMs...")'] },
      /provision: what .* printed on stdout \(\d+ bytes\) is not JSON; it must print one JSON object shaped like the profile's resources section/,
    ],
    [
      'nothing printed',
      { command: [process.execPath, '-e', 'process.exit(0)'] },
      /provision: .* printed nothing on stdout; it must print one JSON object/,
    ],
    [
      'JSON of the wrong shape',
      {
        command: [process.execPath, '-e', 'console.log(JSON.stringify({ deletableGpuVmIds: [1], vms: [] }))'],
      },
      /provision: what .* printed is not a resources section: (?=.*resources\.deletableGpuVmIds\[0\]: must be string, got number)(?=.*resources: unknown field "vms")/,
    ],
    [
      'a non-zero exit, its stderr shown with the token masked',
      {
        command: [
          process.execPath,
          '-e',
          'console.error("cannot create VMs with token " + process.env.PROVISION_TOKEN_0); process.exit(3)',
        ],
      },
      /provision: cannot create VMs with token \[redacted[^\n]*\n(.*\n)*conformance: provision: .* exited with code 3, so the run has no fresh resources and no rule was run/,
    ],
    [
      'a command that does not finish in time',
      { command: [process.execPath, '-e', 'setInterval(() => {}, 1000)'], timeoutMs: 1000 },
      /provision: .* did not finish within 1 s \(provision\.timeoutMs\), so it was stopped and no rule was run\. Raise provision\.timeoutMs/,
    ],
    [
      'a program that does not exist',
      { command: ['no-such-provision-program', '--fresh'] },
      /provision: cannot start no-such-provision-program in .*: no such program \(not on PATH, and no such file relative to the profile\)/,
    ],
  ];

  it.each(bad)(
    '%s stops the run with exit 2 and one clear line, no stack trace, no token',
    async (what, provision, message) => {
      const profile = profileFile(`bad-${what.replace(/\W+/g, '-')}`, { provision });
      const result = await run(profile, `bad-${what.replace(/\W+/g, '-')}`);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n').at(-1)).toMatch(/^conformance: provision: /);
      expect(result.stderr).not.toMatch(STACK_TRACE);
      expect(result.stdout).toBe('');
      expectNoSecret(result.stdout, result.stderr);
    },
  );

  it('a command stopped at its timeout leaves nothing running, whatever it started', async () => {
    const script = join(dir, 'hangs.mjs');
    // It starts a child of its own and waits: stopping the command stops its process group.
    writeFileSync(
      script,
      `import { spawn } from 'node:child_process';
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
setInterval(() => {}, 1000);
`,
    );
    const profile = profileFile('hangs', {
      provision: { command: [process.execPath, script], timeoutMs: 1000 },
    });
    let pid = 0;
    const seen = new Set<number>();
    const watch = setInterval(() => {
      if (pid) for (const child of descendantsOf(pid)) seen.add(child);
    }, 50);
    const result = await runCli(['--target', profile.file, '--out', join(dir, 'hangs')], {
      env: profile.env,
      onStart: (child) => {
        pid = child.pid ?? 0;
      },
    });
    clearInterval(watch);
    expect(result.code).toBe(2);
    expect(seen.size).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([...seen].filter(isAlive), 'processes of the provision command still running').toEqual([]);
  });
});
