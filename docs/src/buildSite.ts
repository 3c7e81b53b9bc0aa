import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openApiJsonPath, openApiYamlPath } from '@cloud-api/spec';
import { build } from 'vitepress';
import { findExternalResources } from './externalResources.js';
import { writePackageReference } from './packageReference.js';
import { packageReferences } from './siteNavigation.js';
import { apiReferenceDir, defaultSiteDir, docsPackageDir, publicDir } from './sitePaths.js';

export { defaultSiteDir } from './sitePaths.js';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.html'))
    .map((name) => join(dir, name));
}

/** Builds the whole static site into `docs/site/` (emptied first). */
export async function buildSite(): Promise<void> {
  for (const dir of [defaultSiteDir, apiReferenceDir, publicDir])
    rmSync(dir, { recursive: true, force: true });
  // The spec downloads: VitePress copies public/ to the site root as it is.
  mkdirSync(publicDir, { recursive: true });
  copyFileSync(openApiYamlPath, join(publicDir, 'openapi.yaml'));
  copyFileSync(openApiJsonPath, join(publicDir, 'openapi.json'));
  for (const reference of packageReferences) await writePackageReference(reference);
  await build(docsPackageDir);
  for (const file of htmlFiles(defaultSiteDir)) {
    const external = findExternalResources(readFileSync(file, 'utf8'));
    if (external.length > 0) throw new Error(`${file} loads from outside: ${external.join(', ')}`);
  }
}
