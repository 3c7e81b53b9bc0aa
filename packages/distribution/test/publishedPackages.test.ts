import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, test } from 'vitest';
import { appEnv } from './commandRun.js';
import { type PublishedName, publishedPackages, repoRoot } from './packedInstall.js';

const run = promisify(execFile);
const { app, tarballs } = inject('packedInstall');
const names = Object.keys(publishedPackages) as PublishedName[];
const installedDir = (name: PublishedName) => join(app, 'node_modules', '@cloud-api', name);
const manifestOf = (name: PublishedName) =>
  JSON.parse(readFileSync(join(installedDir(name), 'package.json'), 'utf8')) as {
    private?: boolean;
    version: string;
    engines?: { node?: string };
    sideEffects?: boolean | string[];
    bin?: Record<string, string>;
    exports: Record<string, string | Record<string, string>>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
const bin = (name: string) => join(repoRoot, 'packages', 'distribution', 'node_modules', '.bin', name);

describe('the six packages as npm installs them from their tarballs', () => {
  test.each(names)(
    '@cloud-api/%s: publishable manifest, exports with types first, no workspace ranges',
    (name) => {
      const manifest = manifestOf(name);
      expect(manifest.private).toBeUndefined();
      expect(manifest.engines?.node).toMatch(/^>=20/);
      expect(manifest.sideEffects === false || Array.isArray(manifest.sideEffects)).toBe(true);
      const root = manifest.exports['.'] as Record<string, string>;
      expect(Object.keys(root)[0]).toBe('types');
      expect(manifest.exports['./package.json']).toBe('./package.json');
      // Every export target is in the tarball.
      for (const target of Object.values(manifest.exports).flatMap((entry) =>
        typeof entry === 'string' ? [entry] : Object.values(entry),
      ))
        expect(existsSync(join(installedDir(name), target)), target).toBe(true);
      // `pnpm pack` rewrote workspace and catalog ranges; our own packages are pinned to the
      // version released together with this one.
      for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
        expect(range, dependency).not.toMatch(/^(workspace|catalog):/);
        if (dependency.startsWith('@cloud-api/')) expect(range, dependency).toBe(manifest.version);
      }
    },
  );

  test('the two CLIs are bins of the names the README gives, executable, with a node shebang', () => {
    expect(manifestOf('conformance').bin).toEqual({
      'cloud-api-conformance': 'bin/cloud-api-conformance.js',
    });
    expect(manifestOf('sandbox').bin).toEqual({ 'cloud-api-sandbox': 'bin/cloud-api-sandbox.js' });
    for (const command of ['cloud-api-conformance', 'cloud-api-sandbox']) {
      const linked = join(app, 'node_modules', '.bin', command);
      accessSync(linked, constants.X_OK);
      expect(readFileSync(linked, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    }
  });

  test('conformance runs its own engine without vitest (an optional peer, for its vitest adapter), and needs Prism only for --target prism', async () => {
    const manifest = manifestOf('conformance');
    expect(manifest.dependencies?.vitest).toBeUndefined();
    expect(manifest.peerDependencies?.vitest).toMatch(/^\^4\./);
    expect(manifest.peerDependenciesMeta?.vitest?.optional).toBe(true);
    expect(manifest.peerDependencies?.['@stoplight/prism-cli']).toBe('5.14.2');
    expect(manifest.peerDependenciesMeta?.['@stoplight/prism-cli']?.optional).toBe(true);
    expect(manifest.exports['./vitest']).toBeDefined();
    // npm installs no optional peer: the installed CLI (run by the other tests here) has neither.
    expect(existsSync(join(app, 'node_modules', 'vitest'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', '@stoplight', 'prism-cli'))).toBe(false);
    // In a user's environment: this test run's own would let Node find the workspace's Prism.
    const prism = await run(
      join(app, 'node_modules', '.bin', 'cloud-api-conformance'),
      ['--target', 'prism'],
      { cwd: app, env: appEnv() },
    ).then(
      (ok: { stdout: string; stderr: string }) => ({
        code: 0,
        stderr: `${ok.stdout}${ok.stderr}`.slice(0, 2000),
      }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );
    expect(prism.code, JSON.stringify(prism)).toBe(2);
    expect(prism.stderr).toMatch(/npm install --save-dev @stoplight\/prism-cli@5\.14\.2/);
  });

  test('the spec package carries the bundle, the API document and the operation catalogue', async () => {
    const spec = installedDir('spec');
    for (const file of ['dist/openapi.yaml', 'dist/openapi.json', 'source/api-document.md'])
      expect(existsSync(join(spec, file)), file).toBe(true);
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { loadOpenApiDocument, operationCatalogue } from '@cloud-api/spec'; console.log(operationCatalogue(loadOpenApiDocument()).length);",
      ],
      { cwd: app },
    );
    expect(Number(stdout.trim())).toBe(8);
  });

  test.each(names)('@cloud-api/%s: every source map points at a file inside the package', (name) => {
    const installed = installedDir(name);
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
  });

  test.each(names)('@cloud-api/%s: the tarball holds no tests, reports or benchmarks', async (name) => {
    const { stdout } = await run('tar', ['-tzf', tarballs[name]]);
    const files = stdout.trim().split('\n');
    expect(
      files.filter((file) => /^package\/(test|reports|bench|dist\/bench|node_modules)\//.test(file)),
    ).toEqual([]);
    console.log(
      `@cloud-api/${name}: ${(statSync(tarballs[name]).size / 1024).toFixed(0)} KiB packed, ${files.length} files`,
    );
  });

  // The README claims ESM only: Node's node16/nodenext resolution from ESM, and bundlers.
  test.each(names)(
    '@cloud-api/%s: publint (strict) and attw (esm-only) are clean',
    {
      timeout: 60_000,
    },
    async (name) => {
      const lint = await run(bin('publint'), ['run', tarballs[name], '--strict']);
      expect(lint.stdout).toContain('All good!');
      // attw exits non-zero on any problem in the profile's modes.
      // The YAML bundle is a data file read by path (require.resolve / import.meta.resolve): no
      // module, so no types to resolve. Every other entry point is checked.
      const exclude = name === 'spec' ? ['--exclude-entrypoints', './openapi.yaml'] : [];
      const types = await run(bin('attw'), [
        tarballs[name],
        '--profile',
        'esm-only',
        '--format',
        'json',
        ...exclude,
      ]);
      const report = JSON.parse(types.stdout) as { analysis: { problems: { resolutionKind?: string }[] } };
      expect(
        report.analysis.problems.filter(
          (problem) => problem.resolutionKind === 'node16-esm' || problem.resolutionKind === 'bundler',
        ),
      ).toEqual([]);
    },
  );
});
