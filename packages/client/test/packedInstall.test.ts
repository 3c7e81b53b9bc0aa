import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createSandbox, defaultSandboxProfile, type ListeningSandbox } from '@cloud-api/sandbox';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageDir, runQuickstart } from './quickstartRun.js';

const run = promisify(execFile);
const bin = (name: string) => join(packageDir, 'node_modules', '.bin', name);

// Issue 11 #8: the client installs outside this repository. Both workspace packages are packed
// as they would be published (`pnpm pack` turns `workspace:*` into the version) and installed
// with plain npm in an empty folder. Tests download nothing at run time, so the client's one
// registry dependency (openapi-fetch, and its openapi-typescript-helpers) is packed from the
// copy this workspace installed and handed to the same `npm install --offline`, which then
// resolves every dependency from the given tarballs.
let work: string;
let tarballs: { types: string; client: string };
let app: string;
let listening: ListeningSandbox;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'cloud-api-pack-'));
  const pack = async (dir: string) => {
    const { stdout } = await run('pnpm', ['pack', '--pack-destination', work], { cwd: dir });
    const file = stdout.trim().split('\n').at(-1) ?? '';
    return resolve(work, file);
  };
  tarballs = { types: await pack(join(packageDir, '..', 'types')), client: await pack(packageDir) };
  const fromRegistry = await Promise.all(registryDependencyDirs().map((dir) => npmPack(dir, work)));
  app = join(work, 'app');
  await mkdir(app);
  const install = ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error'];
  await run('npm', [...install, tarballs.types, tarballs.client, ...fromRegistry], { cwd: app });
  const sandbox = createSandbox({ profile: defaultSandboxProfile(), fault: undefined, variant: undefined });
  listening = await sandbox.listen(0);
}, 240_000);

/** Where this workspace installed openapi-fetch and its dependency (real directories). */
function registryDependencyDirs(): string[] {
  const packageOf = (from: string, name: string) =>
    realpathSync(dirname(createRequire(join(from, 'package.json')).resolve(`${name}/package.json`)));
  const fetchDir = packageOf(packageDir, 'openapi-fetch');
  return [fetchDir, packageOf(fetchDir, 'openapi-typescript-helpers')];
}

/** `npm pack` of an installed package directory (no scripts: it is packed as published). */
async function npmPack(dir: string, destination: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', destination, dir], {
    cwd: destination,
  });
  return resolve(destination, stdout.trim().split('\n').at(-1) ?? '');
}

afterAll(async () => {
  await listening?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('issue 11 #8: the packed client installs with plain npm and runs', () => {
  test('the quickstart runs from the installed packages against the sandbox', {
    timeout: 60_000,
  }, async () => {
    const token = listening.profile.identities.full?.token ?? '';
    const result = await runQuickstart(app, { CLOUD_API_TOKEN: token, CLOUD_API_DEV_URL: listening.url });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^VM vm-\S+ accepted as operation op-[0-9a-f]{8}\n$/);
    // It ran the installed copy, not this workspace's.
    expect(existsSync(join(app, 'node_modules', '@cloud-api', 'client', 'dist', 'index.js'))).toBe(true);
  });

  test('both manifests are publishable: not private, an engines range, no side effects, exports with types first', () => {
    for (const name of ['client', 'types']) {
      const manifest = JSON.parse(
        readFileSync(join(app, 'node_modules', '@cloud-api', name, 'package.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(manifest.private).toBeUndefined();
      expect(manifest.engines).toEqual({ node: '>=20' });
      expect(manifest.sideEffects).toBe(false);
      expect(Object.keys((manifest.exports as Record<string, Record<string, string>>)['.'] ?? {})[0]).toBe(
        'types',
      );
    }
    const client = JSON.parse(
      readFileSync(join(app, 'node_modules', '@cloud-api', 'client', 'package.json'), 'utf8'),
    );
    expect(client.dependencies['@cloud-api/types']).toBe('0.1.0');
    // The packed types satisfied that dependency: nothing else was fetched or nested.
    expect(existsSync(join(app, 'node_modules', '@cloud-api', 'client', 'node_modules'))).toBe(false);
  });

  test('every source map of both installed packages points at files inside the package', () => {
    for (const name of ['client', 'types']) {
      const installed = join(app, 'node_modules', '@cloud-api', name);
      const maps = readdirSync(join(installed, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) =>
        f.endsWith('.map'),
      );
      expect(maps.length).toBeGreaterThan(0);
      for (const map of maps) {
        const mapPath = join(installed, 'dist', map);
        const { sources } = JSON.parse(readFileSync(mapPath, 'utf8')) as { sources: string[] };
        for (const source of sources) {
          const target = resolve(dirname(mapPath), source);
          expect(target.startsWith(`${installed}/`), `${map} → ${source}`).toBe(true);
          expect(existsSync(target), `${map} → ${source}`).toBe(true);
        }
      }
    }
  });

  test('publint (strict) and @arethetypeswrong/cli (esm-only profile) are clean for both tarballs', {
    timeout: 120_000,
  }, async () => {
    for (const tarball of [tarballs.types, tarballs.client]) {
      const lint = await run(bin('publint'), ['run', tarball, '--strict']);
      expect(lint.stdout).toContain('All good!');
      // attw exits non-zero on any problem in the supported modes (node16 from ESM, bundler).
      const types = await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'json']);
      const report = JSON.parse(types.stdout) as { analysis: { problems: { resolutionKind?: string }[] } };
      const supported = report.analysis.problems.filter(
        (problem) => problem.resolutionKind === 'node16-esm' || problem.resolutionKind === 'bundler',
      );
      expect(supported).toEqual([]);
    }
  });
});
