#!/usr/bin/env node
// The npm scope of every package, in one place: SCOPE below. `@cloud-api` is a placeholder the
// API owner replaces with a scope they have claimed on npm (see the README, "Use it from your
// repository": publishing under an unclaimed scope invites dependency confusion).
//
//   node scripts/package-scope.mjs @your-org   rewrites @cloud-api/ in every tracked text file
//                                              (this line included), then run `pnpm install`
//   node scripts/package-scope.mjs --check S   exits 1 unless S is the current scope (release.yml)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCOPE = '@cloud-api';

const root = fileURLToPath(new URL('..', import.meta.url));
const [first, second] = process.argv.slice(2);
const VALID = /^@[a-z0-9][a-z0-9._-]*$/;

if (first === '--check') {
  if (second !== SCOPE) {
    console.error(
      `The packages' scope is ${SCOPE}; the repository variable NPM_SCOPE is "${second ?? ''}". Claim a scope on npm, rename with "node scripts/package-scope.mjs @your-scope", and set NPM_SCOPE to it: publishing under a scope you do not own is a dependency-confusion risk.`,
    );
    process.exit(1);
  }
  console.log(`Scope ${SCOPE} confirmed by NPM_SCOPE.`);
} else if (first && VALID.test(first)) {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  let changed = 0;
  for (const file of files) {
    const path = join(root, file);
    let text;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    if (text.includes('\0')) continue;
    const next = text.replaceAll(`${SCOPE}/`, `${first}/`).replaceAll(`'${SCOPE}'`, `'${first}'`);
    if (next !== text) {
      writeFileSync(path, next);
      changed += 1;
    }
  }
  console.log(`${SCOPE} → ${first} in ${changed} files. Now run pnpm install and commit.`);
} else {
  console.error('usage: node scripts/package-scope.mjs @new-scope | --check @scope');
  process.exit(2);
}
