#!/usr/bin/env node
// Runs before the docs package compiles: without the spec package's build, tsc would only say
// "Cannot find module '@cloud-api/spec'" and the site build would stop on a missing bundle.
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const docsDir = dirname(dirname(fileURLToPath(import.meta.url)));
const specPackage = join(docsDir, 'node_modules', '@cloud-api', 'spec');
const NEEDED = ['dist/index.js', 'dist/index.d.ts', 'dist/openapi.json', 'dist/openapi.yaml'];

if (!existsSync(specPackage)) {
  console.error(
    'docs: the workspace package @cloud-api/spec is not linked into docs/node_modules. Run pnpm install at the repository root.',
  );
  process.exit(2);
}
const missing = NEEDED.filter((file) => !existsSync(join(specPackage, file)));
if (missing.length > 0) {
  const repoRoot = dirname(docsDir);
  const shown = missing.map((file) => relative(repoRoot, join(repoRoot, 'spec', file))).join(', ');
  console.error(
    `docs: the spec is not built (missing ${shown}). Run pnpm docs:build from the repository root: it bundles and builds the spec first. (Or: pnpm --filter @cloud-api/spec bundle && pnpm --filter @cloud-api/spec build.)`,
  );
  process.exit(2);
}
