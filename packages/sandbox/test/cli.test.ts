import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNodeScript, type ScriptRun } from '@cloud-api/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Runs the real command line (dist/cli.js) the way `pnpm sandbox` does. turbo builds the package
// before this test; run directly on edited sources, the test rebuilds dist first.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const cliPath = join(packageDir, 'dist', 'cli.js');
const exampleProfile = join(packageDir, 'profiles', 'sandbox.example.yaml');
/** The conformance package's own example, which the sandbox once refused (issue: four profile definitions). */
const stagingExample = join(packageDir, '..', 'conformance', 'profiles', 'staging.example.yaml');

/** Every `${NAME}` the staging example references, each set to a distinct token of the right environment. */
function stagingVariables(): Record<string, string> {
  const names = [...readFileSync(stagingExample, 'utf8').matchAll(/\$\{([A-Z0-9_]+)\}/g)].map(
    (m) => m[1] ?? '',
  );
  return Object.fromEntries(
    names.map((name) => [
      name,
      `${name.startsWith('PRODUCTION') ? 'svc_prod_key_' : 'svc_dev_key_'}cli_${name.toLowerCase()}`,
    ]),
  );
}

/** This process's environment without any of the staging example's variables. */
function environmentWithout(names: readonly string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of names) delete env[name];
  return env;
}

function newestSourceTime(directory: string): number {
  return Math.max(
    ...readdirSync(directory, { recursive: true, encoding: 'utf8' }).map(
      (name) => statSync(join(directory, name)).mtimeMs,
    ),
  );
}

function ensureBuilt(): void {
  if (existsSync(cliPath) && statSync(cliPath).mtimeMs >= newestSourceTime(join(packageDir, 'src'))) return;
  const tsc = join(packageDir, 'node_modules', 'typescript', 'bin', 'tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: packageDir,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`building the sandbox failed:\n${build.stdout}${build.stderr}`);
}

type CliRun = ScriptRun;

/** Runs the CLI; with `signal`, sends it once the sandbox says it is serving. */
function runCli(args: readonly string[], signal?: NodeJS.Signals, env?: NodeJS.ProcessEnv): Promise<CliRun> {
  return runNodeScript(cliPath, args, {
    cwd: workDir,
    timeoutMs: 15_000,
    ...(signal ? { signalWhenOutput: { text: 'Press Ctrl-C', signal } } : {}),
    ...(env ? { env } : {}),
  });
}

let workDir = '';
let busyServer: Server;
let busyPort = 0;
const files = {
  badYaml: '',
  wrongTypes: '',
  unknownKey: '',
  tokenAsKey: '',
  listRoot: '',
  existing: '',
  plainFile: '',
  runSettings: '',
};

beforeAll(async () => {
  ensureBuilt();
  workDir = mkdtempSync(join(tmpdir(), 'sandbox-cli-test-'));
  const write = (name: string, content: string) => {
    const path = join(workDir, name);
    writeFileSync(path, content);
    return path;
  };
  const example = readFileSync(exampleProfile, 'utf8');
  files.badYaml = write('bad.yaml', 'name: [unclosed\ntoken: svc_dev_key_must_not_print\n');
  files.wrongTypes = write('types.yaml', example.replace(/^name: sandbox$/m, 'name: 5'));
  files.unknownKey = write('unknown.yaml', `${example}revokedTokn: svc_dev_key_must_not_print\n`);
  files.tokenAsKey = write('token-key.yaml', `${example}svc_dev_key_must_not_print: true\n`);
  files.listRoot = write('list.yaml', '- svc_dev_key_must_not_print\n');
  files.existing = write('existing.json', 'keep me\n');
  files.runSettings = write(
    'run-settings.yaml',
    `${example}concurrency: 8\nstrict: true\nmaxResponseBytes: 2097152\nrateLimitPerSecond: 50\nunsupportedRules:\n  - { id: IDEM-2, reason: not claimed }\n`,
  );
  files.plainFile = write('plain-file', 'not a directory\n');
  busyServer = createServer();
  await new Promise<void>((done) => busyServer.listen(0, '127.0.0.1', done));
  const address = busyServer.address();
  busyPort = typeof address === 'object' && address ? address.port : 0;
});

afterAll(async () => {
  await new Promise<void>((done) => busyServer.close(() => done()));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

function expectClean(run: CliRun): void {
  const output = run.stdout + run.stderr;
  expect(output, 'a token was printed').not.toMatch(/svc_/);
  expect(output, 'a stack trace was printed').not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);
}

interface RefusalCase {
  readonly name: string;
  readonly args: () => string[];
  /** What the one-line error must say: what was wrong and what to do. */
  readonly stderr: RegExp;
}

const refusals: readonly RefusalCase[] = [
  {
    name: 'a port that is not a number',
    args: () => ['--port', 'abc'],
    stderr: /port number from 0 to 65535/,
  },
  { name: 'a port above 65535', args: () => ['--port', '70000'], stderr: /port number from 0 to 65535/ },
  {
    name: 'a port already in use',
    args: () => ['--port', String(busyPort)],
    stderr: /already in use\. Choose another --port, or --port 0/,
  },
  {
    name: 'a host that is not an IPv4 address',
    args: () => ['--host', '999.1.1.1'],
    stderr: /'999\.1\.1\.1' is invalid\. not an IPv4 address .*e\.g\. 127\.0\.0\.1/,
  },
  {
    name: 'a host name that does not resolve',
    args: () => ['--host', 'no-such-host.invalid'],
    stderr: /does not resolve\. Use --host 127\.0\.0\.1/,
  },
  {
    name: 'an unknown fault',
    args: () => ['--fault', 'nope'],
    stderr: /unknown fault "nope"; list the faults with --list-faults/,
  },
  {
    name: 'an unknown variant',
    args: () => ['--variant', 'nope'],
    stderr: /unknown variant "nope"; list the variants with --list-variants/,
  },
  {
    name: 'an unknown option',
    args: () => ['--bogus'],
    stderr: /unknown option '--bogus'\n\(run with --help/,
  },
  { name: 'a stray argument', args: () => ['extra'], stderr: /too many arguments/ },
  {
    name: 'a profile that does not exist',
    args: () => ['--profile', 'missing.yaml'],
    stderr: /Cannot read the profile .*missing\.yaml \(no such file or directory\)\. Check the path/,
  },
  {
    name: 'a profile that is a directory',
    args: () => ['--profile', workDir],
    stderr: /\(it is a directory, not a file\)/,
  },
  {
    name: 'a profile with invalid YAML',
    args: () => ['--profile', files.badYaml],
    stderr: /bad\.yaml is not valid YAML or JSON: .*at line \d+, column \d+\./,
  },
  {
    name: 'a profile holding a list',
    args: () => ['--profile', files.listRoot],
    stderr: /list\.yaml must contain a mapping \(name, baseUrl/,
  },
  {
    name: 'a profile with a value of the wrong type',
    args: () => ['--profile', files.wrongTypes],
    stderr:
      /is not usable: name: must be string, got number\.\nsandbox: a complete example: .*sandbox\.example\.yaml/,
  },
  {
    name: 'a profile with a misspelt key',
    args: () => ['--profile', files.unknownKey],
    stderr:
      /is not usable: \(root\): unknown field "revokedTokn" \(check its spelling .*; the fields allowed here are .*revokedToken/,
  },
  {
    name: 'a profile with a token as a key',
    args: () => ['--profile', files.tokenAsKey],
    stderr: /is not usable: \(root\): unknown field \(a key that looks like a token\)/,
  },
  {
    name: '--environment contradicting the profile',
    args: () => ['--profile', exampleProfile, '--environment', 'production'],
    stderr: /contradicts the profile, whose environment is development.*Drop one of the two/,
  },
  {
    name: '--profile-out in a directory that does not exist',
    args: () => ['--profile-out', join(workDir, 'no-such-dir', 'p.json')],
    stderr: /its directory .*no-such-dir cannot be used \(no such file or directory\)\. Create it first/,
  },
  {
    name: '--profile-out under a plain file',
    args: () => ['--profile-out', join(files.plainFile, 'p.json')],
    stderr: /plain-file is not a directory\. Choose another path/,
  },
  {
    name: '--profile-out naming a directory',
    args: () => ['--profile-out', workDir],
    stderr: /it is a directory\. Name a file/,
  },
  {
    name: '--profile-out naming an existing file',
    args: () => ['--profile-out', files.existing],
    stderr: /already exists\. Add --overwrite to replace it, or choose another path/,
  },
  {
    name: '--profile-out naming the --profile it reads, even with --overwrite',
    args: () => ['--profile', exampleProfile, '--profile-out', exampleProfile, '--overwrite'],
    stderr: /is the profile the sandbox reads \(--profile\)/,
  },
  {
    name: '--overwrite without --profile-out',
    args: () => ['--overwrite'],
    stderr: /--overwrite only applies to --profile-out/,
  },
];

describe('the sandbox command line tells its version', () => {
  it('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });
});

describe('the sandbox command line refuses bad input with exit 2 and one clear message', () => {
  it.concurrent.each(refusals)('$name', async ({ args, stderr }) => {
    const run = await runCli(args());
    expectClean(run);
    expect(run.stderr).toMatch(stderr);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  });

  it("names the staging example's variable that is not set, and prints no value", async () => {
    const variables = stagingVariables();
    const { STAGING_TOKEN_FULL: unset, ...others } = variables;
    expect(unset).toBeDefined();
    const run = await runCli(['--profile', stagingExample], undefined, {
      ...environmentWithout(Object.keys(variables)),
      ...others,
    });
    expectClean(run);
    expect(run.stderr).toMatch(
      /staging\.example\.yaml cannot be read: identities\.full\.token: environment variable STAGING_TOKEN_FULL is not set\. Export it/,
    );
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  });

  it('leaves an existing file alone when it refuses to overwrite it', async () => {
    await runCli(['--profile-out', files.existing]);
    expect(readFileSync(files.existing, 'utf8')).toBe('keep me\n');
  });
});

describe('the sandbox command line while serving', () => {
  it.concurrent.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    'stops cleanly on %s and removes the generated profile',
    async (signal) => {
      const run = await runCli(['--port', '0'], signal);
      expectClean(run);
      expect(run.stdout).toContain('Sandbox stopped.');
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const profilePath = /Profile with this sandbox's tokens: (\S+)/.exec(run.stdout)?.[1];
      expect(profilePath).toBeDefined();
      expect(existsSync(profilePath ?? '')).toBe(false);
    },
  );

  it("starts from the conformance package's staging example when the variables it references are set", async () => {
    const variables = stagingVariables();
    expect(Object.keys(variables)).toEqual(
      expect.arrayContaining(['STAGING_TOKEN_FULL', 'STAGING_TOKEN_REVOKED', 'PRODUCTION_TOKEN_ANY']),
    );
    const written = join(workDir, 'staging-seeded.json');
    const run = await runCli(['--profile', stagingExample, '--profile-out', written], 'SIGINT', {
      ...process.env,
      ...variables,
    });
    expectClean(run);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      /Cloud API sandbox \(development\) listening at http:\/\/127\.0\.0\.1:\d+\/v1\n/,
    );
    expect(run.stdout).toContain('Sandbox stopped.');
    expect(run.code).toBe(0);
    // Seeded with the example's identities, tokens from the environment, and its run settings kept.
    const profile = JSON.parse(readFileSync(written, 'utf8')) as {
      identities: Record<string, { token: string; scopes: unknown }>;
      revokedToken: string;
      concurrency: number;
    };
    expect(Object.keys(profile.identities)).toEqual([
      'full',
      'noVmWrite',
      'noBilling',
      'readOnly',
      'primaryOnly',
      'secondaryOnly',
    ]);
    expect(profile.identities.readOnly).toEqual({
      token: variables.STAGING_TOKEN_READ_ONLY,
      scopes: ['vm.read', 'network.read'],
      workspaces: 'all',
    });
    expect(profile.revokedToken).toBe(variables.STAGING_TOKEN_REVOKED);
    expect(profile.concurrency).toBe(4);
  });

  it('accepts a profile holding concurrency, strict and maxResponseBytes', async () => {
    const run = await runCli(['--profile', files.runSettings], 'SIGTERM');
    expectClean(run);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/listening at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(run.code).toBe(0);
  });

  it('accepts a fault and a variant together and says so', async () => {
    const run = await runCli(['--fault', 'accept-revoked-token', '--variant', 'workspace-id-422'], 'SIGINT');
    expectClean(run);
    expect(run.stdout).toContain('Fault: accept-revoked-token. Variant: workspace-id-422.');
    expect(run.code).toBe(0);
  });

  it('replaces an existing --profile-out file only with --overwrite, says so, and keeps it 0600', async () => {
    const target = join(workDir, 'replaced.json');
    writeFileSync(target, 'old\n', { mode: 0o644 });
    const run = await runCli(
      ['--profile', exampleProfile, '--profile-out', target, '--overwrite'],
      'SIGTERM',
    );
    expectClean(run);
    expect(run.stdout).toContain(
      `${target} (mode 0600, replaced the existing file; tokens are never printed)`,
    );
    expect(run.code).toBe(0);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    const written = JSON.parse(readFileSync(target, 'utf8')) as { identities: { full: { token: string } } };
    expect(written.identities.full.token).toBe('svc_dev_key_sandbox_full');
    expect(readdirSync(workDir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });
});
