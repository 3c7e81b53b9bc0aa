import { execFile } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const repoRoot: string = fileURLToPath(new URL('../../../', import.meta.url));
const packageDir = join(repoRoot, 'packages', 'distribution');

/**
 * What the app itself brings, as a user's project would: the TypeScript compiler and Node's
 * types, to type-check a file that imports the client.
 */
const APP_TOOLS = ['typescript', '@types/node'];

/** The published packages, by directory, in the order a reader meets them. */
export const publishedPackages = {
  spec: join(repoRoot, 'spec'),
  types: join(repoRoot, 'packages', 'types'),
  client: join(repoRoot, 'packages', 'client'),
  'target-profile': join(repoRoot, 'packages', 'target-profile'),
  sandbox: join(repoRoot, 'packages', 'sandbox'),
  conformance: join(repoRoot, 'packages', 'conformance'),
} as const;

export type PublishedName = keyof typeof publishedPackages;

export interface PackedInstall {
  /** The temporary folder holding the tarballs and the app (outside the workspace). */
  readonly work: string;
  /** The app folder: an empty npm project that installed the tarballs. */
  readonly app: string;
  /** Our `pnpm pack` tarballs, by package. */
  readonly tarballs: Readonly<Record<PublishedName, string>>;
  /** How many registry packages were handed to npm from this workspace's installed copies. */
  readonly registryPackages: number;
  readonly seconds: number;
}

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** Node's lookup of `name` from a package directory (pnpm's layout puts dependencies beside it). */
function installedDir(from: string, name: string): string | undefined {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === 'node_modules') continue;
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
  }
  return undefined;
}

/**
 * Every registry package the published packages need at run time, as installed in this
 * workspace: the closure of `dependencies`, the installed `optionalDependencies` (the platform
 * binaries of this machine) and the required peers. Workspace packages are skipped (they are
 * packed themselves). Two versions of one name cannot be handed to one `npm install`, so that
 * is refused here with the names, rather than failing later in npm.
 */
export function registryClosure(appTools: readonly string[] = []): string[] {
  const workspaceDirs = new Set(Object.values(publishedPackages).map((dir) => realpathSync(dir)));
  const found = new Map<string, string>();
  for (const name of appTools) {
    const dir = installedDir(packageDir, name);
    if (!dir) throw new Error(`${name} is not installed in ${packageDir}`);
    found.set(name, dir);
  }
  const queue = [...workspaceDirs, ...found.values()];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    if (seen.has(dir)) continue;
    seen.add(dir);
    const manifest = readManifest(dir);
    const requiredPeers = Object.keys(manifest.peerDependencies ?? {}).filter(
      (name) => manifest.peerDependenciesMeta?.[name]?.optional !== true,
    );
    const names = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...requiredPeers,
    ];
    for (const name of names) {
      const depDir = installedDir(dir, name);
      if (!depDir) {
        // Optional dependencies for other platforms are simply not installed here.
        if (manifest.optionalDependencies?.[name] !== undefined) continue;
        throw new Error(`${manifest.name} needs ${name}, which is not installed in this workspace`);
      }
      if (workspaceDirs.has(depDir)) continue;
      const previous = found.get(name);
      if (previous && previous !== depDir)
        throw new Error(`two versions of ${name} in the published closure: ${previous} and ${depDir}`);
      found.set(name, depDir);
      queue.push(depDir);
    }
  }
  return [...found.values()].sort();
}

/**
 * A registry-style tarball (`package/…`) of an installed package directory, exactly as it was
 * installed. (`npm pack` of many directories at once crashes npm; one npm per package costs a
 * second each.) Level-1 gzip: the tarballs live for one install.
 */
async function tarball(dir: string, destination: string): Promise<string> {
  const { name, version } = readManifest(dir);
  const file = join(destination, `${name.replace('@', '').replace('/', '-')}-${version}.tgz`);
  await run(
    'tar',
    [
      '-czf',
      file,
      '--hard-dereference',
      '--exclude=./node_modules',
      '--transform=s,^\\.,package,',
      '-C',
      dir,
      '.',
    ],
    {
      env: { ...process.env, GZIP: '-1' },
    },
  );
  return file;
}

async function inBatches<T, R>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size)
    results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return results;
}

/** `pnpm pack` of a workspace package: `workspace:*` and `catalog:` become versions. */
async function pnpmPack(dir: string, destination: string): Promise<string> {
  const { stdout } = await run('pnpm', ['pack', '--pack-destination', destination], { cwd: dir });
  return resolve(destination, stdout.trim().split('\n').at(-1) ?? '');
}

/**
 * Packs the six published packages as they would be published, and installs them with plain
 * npm into an empty folder outside the workspace.
 *
 * Tests download nothing, so `npm install --offline` gets every registry package too: each one
 * the published packages need is packed (`npm pack`, no scripts) from the copy this workspace
 * installed, and handed to the same install, which then satisfies every dependency from the
 * given tarballs. npm still runs the packages' install scripts as it would for a user.
 */
export async function packAndInstall(): Promise<PackedInstall> {
  const started = performance.now();
  const work = await mkdtemp(join(tmpdir(), 'cloud-api-dist-'));
  const packs = join(work, 'packs');
  const registry = join(work, 'registry');
  await mkdir(packs);
  await mkdir(registry);
  const entries = await Promise.all(
    Object.entries(publishedPackages).map(async ([name, dir]) => [name, await pnpmPack(dir, packs)] as const),
  );
  const tarballs = Object.fromEntries(entries) as Record<PublishedName, string>;
  const closure = registryClosure(APP_TOOLS);
  const registryTarballs = await inBatches(closure, 4, (dir) => tarball(dir, registry));
  const app = join(work, 'app');
  await mkdir(app);
  await writeFile(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'app', private: true, type: 'module' })}\n`,
  );
  await run(
    'npm',
    [
      'install',
      '--offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      // A cache of its own: the install proves nothing by what an earlier one left behind.
      `--cache=${join(work, 'npm-cache')}`,
      ...Object.values(tarballs),
      ...registryTarballs,
    ],
    { cwd: app, maxBuffer: 16 * 1024 * 1024 },
  );
  return {
    work,
    app,
    tarballs,
    registryPackages: closure.length,
    seconds: (performance.now() - started) / 1000,
  };
}
