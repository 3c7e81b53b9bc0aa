import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { parse } from 'yaml';
import { appEnv, RunningCommand, runCommand } from './commandRun.js';
import { repoRoot } from './packedInstall.js';

const run = promisify(execFile);
const { app } = inject('packedInstall');
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const actionDir = join(repoRoot, '.github', 'actions', 'conformance');

/** The fenced blocks of one README section, by language. */
function sectionBlocks(heading: string, language: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "${heading}"`).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (m) => m[1] as string,
  );
}

const USE = 'Use it from your repository';
const shellLines = (sectionBlocks(USE, 'sh')[0] ?? '').trim().split('\n');
const npxLine = (command: string) => {
  const line = shellLines.find((candidate) => candidate.startsWith(`npx ${command} `));
  expect(line, `README runs npx ${command}`).toBeDefined();
  return line as string;
};

/** A run of the contract gate's script, as the action's run step invokes it. */
async function runGate(inputs: Record<string, string>, dir: string) {
  const summary = join(dir, `summary-${Date.now()}.md`);
  const outputs = join(dir, `outputs-${Date.now()}.txt`);
  writeFileSync(summary, '# earlier steps\n');
  writeFileSync(outputs, '');
  const env = appEnv({
    CONFORMANCE_BIN: join(app, 'node_modules', '.bin', 'cloud-api-conformance'),
    GITHUB_WORKSPACE: app,
    RUNNER_TEMP: dir,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_OUTPUT: outputs,
    GITHUB_JOB: 'gate',
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: 'owner/app',
    GITHUB_RUN_ID: '42',
    ...Object.fromEntries(
      Object.entries(inputs).map(([name, value]) => [
        `INPUT_${name.toUpperCase().replaceAll('-', '_')}`,
        value,
      ]),
    ),
  });
  const result = await runCommand(`node ${join(actionDir, 'run-gate.mjs')}`, app, env, 180_000);
  const stepOutputs = Object.fromEntries(
    readFileSync(outputs, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  return { ...result, summary: readFileSync(summary, 'utf8'), outputs: stepOutputs };
}

describe('the README commands, run verbatim in the installed app', () => {
  test('the install line names the two packages that bring the commands', () => {
    expect(shellLines[0]).toBe('npm install --save-dev @cloud-api/conformance @cloud-api/sandbox');
  });

  test('npx cloud-api-conformance --target sandbox passes every rule of the catalogue', {
    timeout: 180_000,
  }, async () => {
    const line = npxLine('cloud-api-conformance');
    expect(line).toContain('--target sandbox ');
    const result = await runCommand(line, app, appEnv(), 170_000);
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    expect(result.stdout).toMatch(/PASSED/i);
    // The JUnit report (from the installed package's own reporter) lists every rule, none failed.
    const junit = readFileSync(join(app, 'reports', 'conformance-junit.xml'), 'utf8');
    expect(junit).toMatch(/failures="0"/);
    expect(junit).not.toMatch(/<(failure|error|skipped)\b/);
    expect(result.stdout).not.toMatch(/\b(FAIL|SKIP|INCONCLUSIVE|INCOMPLETE)\b/);
  });
});

describe('the installed sandbox, the client against it, and the contract-gate script', () => {
  let sandbox: RunningCommand;
  let baseUrl: string;
  let profilePath: string;

  beforeAll(async () => {
    sandbox = new RunningCommand(npxLine('cloud-api-sandbox'), app, appEnv(), 300_000);
    baseUrl = (await sandbox.waitFor(/listening at (http:\/\/127\.0\.0\.1:\d+\/v1)/))[1] as string;
    profilePath = (await sandbox.waitFor(/tokens: (\S+) \(mode 0600/))[1] as string;
  });

  afterAll(async () => {
    sandbox?.signalGroup('SIGKILL');
  });

  test('a TypeScript file importing the client type-checks with tsc and runs against it', {
    timeout: 60_000,
  }, async () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          types: ['node'],
          outDir: 'out',
        },
        files: ['createVm.ts'],
      }),
    );
    writeFileSync(
      join(app, 'createVm.ts'),
      [
        "import { createCloudClient } from '@cloud-api/client';",
        "import type { OperationAcceptance } from '@cloud-api/types';",
        '',
        'const cloud = createCloudClient({',
        "  token: process.env.CLOUD_API_TOKEN ?? '',",
        "  workspaceId: '1042',",
        '  environments: { development: process.env.CLOUD_API_DEV_URL },',
        '});',
        'const op: OperationAcceptance = await cloud.createCloudVm({',
        "  name: 'web-01',",
        "  plan_id: 'plan-std-2c-4g',",
        '  cpu: 2,',
        '  ram_mb: 4096,',
        '});',
        'console.log(op.status, op.vm_id);',
        '',
      ].join('\n'),
    );
    // The app's own TypeScript, resolving @cloud-api/* from its node_modules.
    await run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: app });
    const profile = parse(readFileSync(profilePath, 'utf8')) as { identities: { full: { token: string } } };
    const result = await runCommand(
      'node out/createVm.js',
      app,
      appEnv({ CLOUD_API_TOKEN: profile.identities.full.token, CLOUD_API_DEV_URL: baseUrl }),
      30_000,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^accepted vm-\S+\n$/);
  });

  test('a deliberate type error in that file fails tsc (the check has teeth)', async () => {
    writeFileSync(
      join(app, 'createVm.ts'),
      "import { createCloudClient } from '@cloud-api/client';\ncreateCloudClient({ token: 1 });\n",
    );
    // --skipLibCheck: the published declarations were checked by the test above.
    const failed: { code?: number; stdout: string } = await run(
      join(app, 'node_modules', '.bin', 'tsc'),
      ['-p', 'tsconfig.json', '--skipLibCheck'],
      { cwd: app },
    ).catch((error: { code: number; stdout: string }) => error);
    expect(failed.code).toBe(2);
    expect(failed.stdout).toMatch(/createVm\.ts\(2,\d+\): error TS2/);
  });

  test("the Action's run script gates on the sandbox's profile: passed, reports and summary written", {
    timeout: 180_000,
  }, async () => {
    const gate = await runGate(
      { profile: 'sandbox-profile.yaml', strict: 'true', depth: '5', shard: '1/2', reporters: 'table' },
      join(app, '..'),
    );
    expect(gate.code, gate.stderr.slice(-3000)).toBe(0);
    expect(gate.outputs).toMatchObject({
      'exit-code': '0',
      verdict: 'passed',
      'artifact-name': 'conformance-gate-shard-1of2',
    });
    const reportDir = gate.outputs['report-dir'] as string;
    for (const file of [
      'conformance-report.json',
      'conformance-junit.xml',
      'conformance-summary.md',
      'conformance-report.html',
      'conformance.har',
    ])
      expect(existsSync(join(reportDir, file)), file).toBe(true);
    expect(gate.summary).toContain('Evidence in artifact [`conformance-gate-shard-1of2`]');
    // The summary is appended after what earlier steps wrote, and is the CLI's rule table.
    expect(gate.summary.startsWith('# earlier steps\n## Conformance of')).toBe(true);
    expect(gate.summary).toContain('strict gate');
    expect(gate.summary).toContain('shard 1/2');
    expect(gate.summary).toMatch(/\| [A-Z]+-\d \| MUST \| PASS \|/);
    // The table reporter wrote to the step's log; no token of the profile did.
    expect(gate.stdout).toContain('RULE');
    const profileText = readFileSync(profilePath, 'utf8');
    for (const token of profileText.match(/svc_dev_key_\w+/g) ?? []) {
      expect(gate.stdout).not.toContain(token);
      expect(gate.summary).not.toContain(token);
    }
  });

  test('a failing rule fails the step, and its summary line links the replay file in the artifact', {
    timeout: 120_000,
  }, async () => {
    const faulty = new RunningCommand(
      'npx cloud-api-sandbox --fault accept-unknown-token --profile-out faulty-profile.yaml',
      app,
      appEnv(),
      120_000,
    );
    try {
      await faulty.waitFor(/listening at/);
      const gate = await runGate(
        {
          profile: 'faulty-profile.yaml',
          depth: '5',
          args: '--rules AUTH-2',
          'artifact-name': 'gate-reports',
        },
        join(app, '..'),
      );
      expect(gate.code).toBe(1);
      expect(gate.outputs.verdict).toBe('failed');
      const replay = gate.summary.match(
        /replay: \[`(replays\/AUTH-2-[^`]+\.json)`\]\(https:\/\/github\.example\/owner\/app\/actions\/runs\/42#artifacts\) in artifact `gate-reports`/,
      );
      expect(replay, gate.summary).not.toBeNull();
      expect(existsSync(join(gate.outputs['report-dir'] as string, replay?.[1] as string))).toBe(true);
    } finally {
      await faulty.interrupt();
    }
  });

  test('bad inputs are refused before anything runs (exit 2, one line naming the input)', async () => {
    const gate = await runGate({ profile: 'sandbox-profile.yaml', strict: 'yes' }, join(app, '..'));
    expect(gate.code).toBe(2);
    expect(gate.stderr).toContain('input "strict" must be "true" or "false"');
  });

  test('Ctrl-C stops the sandbox cleanly: it says so and the port is closed', async () => {
    // A terminal's Ctrl-C reaches npx too, which then ends by the signal: the sandbox's own
    // goodbye and the closed port are what show it stopped cleanly.
    const result = await sandbox.interrupt();
    expect(result.stdout).toContain('Sandbox stopped.');
    expect(result.stderr).not.toMatch(/Error|at /);
    await expect(fetch(baseUrl, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });
});

describe('the README Action step', () => {
  test('is one step using this action, with only inputs action.yml declares', () => {
    const [block] = sectionBlocks(USE, 'yaml');
    const steps = parse(block ?? '') as Record<string, unknown>[];
    expect(steps).toHaveLength(1);
    const step = steps[0] as { uses: string; with: Record<string, unknown>; env: Record<string, string> };
    expect(step.uses).toMatch(/\/\.github\/actions\/conformance@COMMIT_SHA$/);
    const action = parse(readFileSync(join(actionDir, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { required?: boolean }>;
    };
    expect(Object.keys(step.with).filter((name) => !(name in action.inputs))).toEqual([]);
    for (const [name, input] of Object.entries(action.inputs))
      if (input.required) expect(step.with, `required input ${name}`).toHaveProperty(name);
    // The brief's inputs, all of them shown.
    expect(Object.keys(step.with)).toEqual([
      'profile',
      'strict',
      'depth',
      'shard',
      'reporters',
      'github-token',
    ]);
    for (const value of Object.values(step.env)) expect(value).toMatch(/^\$\{\{ secrets\.[A-Z0-9_]+ \}\}$/);
  });
});
