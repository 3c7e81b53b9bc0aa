import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNodeScript, type ScriptRun } from '@cloud-api/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Runs `pnpm docs:serve`'s program (dist/serveSite.js) and the build's spec check for real, on a
// throw-away site folder (the browser test rebuilds docs/site meanwhile). turbo builds the
// package before this test; run directly on edited sources, the test compiles dist first.
const docsDir = fileURLToPath(new URL('..', import.meta.url));
const serveScript = join(docsDir, 'dist', 'serveSite.js');
const specCheckScript = join(docsDir, 'scripts', 'requireSpecBuild.mjs');

function ensureBuilt(): void {
  const sources = readdirSync(join(docsDir, 'src')).map(
    (name) => statSync(join(docsDir, 'src', name)).mtimeMs,
  );
  if (existsSync(serveScript) && statSync(serveScript).mtimeMs >= Math.max(...sources)) return;
  const tsc = join(docsDir, 'node_modules', 'typescript', 'bin', 'tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: docsDir,
    encoding: 'utf8',
  });
  if (build.status !== 0)
    throw new Error(`compiling the docs package failed:\n${build.stdout}${build.stderr}`);
}

type Run = ScriptRun;

/** Runs the docs server; with `signal`, sends it once the server says it is serving. */
function serve(args: readonly string[], env: NodeJS.ProcessEnv = {}, signal?: NodeJS.Signals): Promise<Run> {
  return runNodeScript(serveScript, args, {
    env: { ...process.env, PORT: '', ...env },
    timeoutMs: 10_000,
    ...(signal ? { signalWhenOutput: { text: 'Ctrl+C to stop', signal } } : {}),
  });
}

let workDir = '';
let siteDir = '';
let busy: Server;
let busyPort = 0;

beforeAll(async () => {
  ensureBuilt();
  workDir = mkdtempSync(join(tmpdir(), 'docs-serve-test-'));
  siteDir = join(workDir, 'site');
  mkdirSync(siteDir);
  writeFileSync(join(siteDir, 'index.html'), '<h1>home</h1>');
  busy = createServer();
  await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
  const address = busy.address();
  busyPort = typeof address === 'object' && address ? address.port : 0;
});

afterAll(async () => {
  await new Promise<void>((done) => busy.close(() => done()));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

interface RefusalCase {
  readonly name: string;
  readonly args: () => string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly stderr: RegExp;
}

const refusals: readonly RefusalCase[] = [
  {
    name: 'a port that is not a number',
    args: () => ['--port', 'abc'],
    stderr: /--port must be a port number from 0 to 65535 .*got "abc"/,
  },
  {
    name: 'a port above 65535',
    args: () => ['--port=70000'],
    stderr: /--port must be a port number from 0 to 65535/,
  },
  {
    name: '--port without a value',
    args: () => ['--port'],
    stderr: /--port needs a value, e\.g\. --port 8080/,
  },
  {
    name: 'a PORT variable that is not a port',
    args: () => [],
    env: { PORT: 'abc' },
    stderr: /The PORT variable must be a port number/,
  },
  {
    name: 'an unknown option',
    args: () => ['--bogus'],
    stderr: /unknown option --bogus\.\nUsage: pnpm docs:serve/,
  },
  { name: 'a stray argument', args: () => ['site'], stderr: /unexpected argument "site"/ },
  {
    name: 'a host that is not an IPv4 address',
    args: () => ['--host', '999.1.1.1'],
    stderr: /--host must be an address of this machine/,
  },
  {
    name: 'a port already in use',
    args: () => ['--dir', siteDir, '--port', String(busyPort)],
    stderr: /port \d+ on 127\.0\.0\.1 is already in use .*--port 0 picks a free one/,
  },
  {
    name: 'a folder without a built site',
    args: () => ['--dir', workDir, '--port', '0'],
    stderr: /no built site in .* \(no index\.html\); pass the folder pnpm docs:build writes/,
  },
];

describe('pnpm docs:serve refuses bad input with exit 2 and one clear message', () => {
  it.concurrent.each(refusals)('$name', async ({ args, env, stderr }) => {
    const run = await serve(args(), env);
    expect(run.stderr).toMatch(stderr);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('serves a site and stops cleanly on %s', async (signal) => {
    const run = await serve(['--dir', siteDir, '--port', '0'], {}, signal);
    expect(run.stdout).toMatch(/docs: serving .* at http:\/\/127\.0\.0\.1:\d+\//);
    expect(run.stdout).toContain('docs: stopped.');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});

describe('the docs build without a built spec', () => {
  const specFiles = ['index.js', 'index.d.ts', 'openapi.json', 'openapi.yaml'];

  /** Runs a copy of the check in a fake docs package whose spec dist holds only `present`. */
  function checkWith(present: readonly string[] | 'unlinked'): Omit<Run, 'lifetimeMs'> {
    const root = mkdtempSync(join(workDir, 'repo-'));
    cpSync(specCheckScript, join(root, 'docs', 'scripts', 'requireSpecBuild.mjs'));
    if (present !== 'unlinked') {
      const dist = join(root, 'docs', 'node_modules', '@cloud-api', 'spec', 'dist');
      mkdirSync(dist, { recursive: true });
      for (const file of present) writeFileSync(join(dist, file), '');
    }
    const result = spawnSync(process.execPath, [join(root, 'docs', 'scripts', 'requireSpecBuild.mjs')], {
      encoding: 'utf8',
    });
    return { code: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
  }

  it.each([
    ['no spec dist at all', [], /missing spec\/dist\/index\.js, .*spec\/dist\/openapi\.yaml\)/],
    [
      'only the bundle missing',
      ['index.js', 'index.d.ts'],
      /missing spec\/dist\/openapi\.json, spec\/dist\/openapi\.yaml\)/,
    ],
  ] as const)('names the missing files and pnpm docs:build (%s)', (_case, present, missing) => {
    const run = checkWith(present);
    expect(run.stderr).toMatch(missing);
    expect(run.stderr).toContain('Run pnpm docs:build from the repository root');
    expect(run.code).toBe(2);
  });

  it('asks for pnpm install when the spec package is not linked', () => {
    const run = checkWith('unlinked');
    expect(run.stderr).toContain('Run pnpm install at the repository root');
    expect(run.code).toBe(2);
  });

  it('the site build itself names pnpm docs:build, without a stack trace, when the spec module is missing', () => {
    const root = mkdtempSync(join(workDir, 'unbuilt-'));
    cpSync(join(docsDir, 'dist'), join(root, 'docs', 'dist'), { recursive: true });
    const modules = join(root, 'docs', 'node_modules');
    mkdirSync(join(modules, '@cloud-api', 'spec'), { recursive: true });
    for (const name of ['vitepress', 'typedoc', 'yaml']) {
      symlinkSync(realpathSync(join(docsDir, 'node_modules', name)), join(modules, name));
    }
    writeFileSync(
      join(modules, '@cloud-api', 'spec', 'package.json'),
      JSON.stringify({ name: '@cloud-api/spec', type: 'module', exports: { '.': './dist/index.js' } }),
    );
    const result = spawnSync(process.execPath, [join(root, 'docs', 'dist', 'buildCommand.js')], {
      encoding: 'utf8',
    });
    expect(result.stderr).toMatch(
      /^docs: build failed: the spec is not built \(.*spec.*\)\. Run pnpm docs:build/,
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.status).toBe(1);
  });

  it('passes silently when the spec is built', () => {
    const run = checkWith(specFiles);
    expect(run).toEqual({ code: 0, signal: null, stdout: '', stderr: '' });
  });
});
