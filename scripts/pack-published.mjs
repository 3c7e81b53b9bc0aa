#!/usr/bin/env node
// Packs the six published packages as they would be published (`pnpm pack`: workspace and
// catalog ranges become versions) into one directory, and prints the tarball paths, one per
// line. The staging workflow hands them to the contract-gate Action; run `pnpm build` first.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const PUBLISHED = [
  'spec',
  'packages/types',
  'packages/client',
  'packages/target-profile',
  'packages/sandbox',
  'packages/conformance',
];
const destination = resolve(process.argv[2] ?? 'packs');
mkdirSync(destination, { recursive: true });
for (const dir of PUBLISHED) {
  const output = execFileSync('pnpm', ['pack', '--pack-destination', destination], {
    cwd: join(root, dir),
    encoding: 'utf8',
  });
  console.log(resolve(destination, output.trim().split('\n').at(-1) ?? ''));
}
