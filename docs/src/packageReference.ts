import { join } from 'node:path';
import { Application, LogLevel } from 'typedoc';
import type { PackageReference } from './siteNavigation.js';
import { apiReferenceDir, docsPackageDir } from './sitePaths.js';

const repositoryRoot = join(docsPackageDir, '..');

/**
 * Writes one package's API reference as VitePress Markdown into `api/<slug>/` with TypeDoc,
 * typedoc-plugin-markdown and typedoc-vitepress-theme (which also writes the sidebar JSON the
 * VitePress config reads). Any TypeDoc warning fails the build: a broken `{@link}` or an
 * exported symbol missing from the entry point would otherwise ship silently.
 */
export async function writePackageReference(reference: PackageReference): Promise<void> {
  const out = join(apiReferenceDir, reference.slug);
  const app = await Application.bootstrapWithPlugins({
    entryPoints: [join(repositoryRoot, reference.entryPoint)],
    tsconfig: join(repositoryRoot, reference.tsconfig),
    plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
    out,
    docsRoot: docsPackageDir,
    name: reference.packageName,
    readme: 'none',
    excludePrivate: true,
    excludeInternal: true,
    skipErrorChecking: true,
    // The git revision would put a commit hash in every "Defined in" line; paths are enough.
    disableSources: true,
    logLevel: LogLevel.Warn,
    treatWarningsAsErrors: true,
    // The reference is about the package's own API, not the types it re-exports from Node.
    excludeExternals: true,
  } as Parameters<typeof Application.bootstrapWithPlugins>[0]);
  const project = await app.convert();
  if (project === undefined) throw new Error(`TypeDoc could not convert ${reference.packageName}`);
  await app.generateOutputs(project);
  if (app.logger.hasErrors() || app.logger.hasWarnings()) {
    throw new Error(`TypeDoc reported problems in ${reference.packageName} (see above)`);
  }
}
