// Prints one closing line for the whole repository's test run, summed over every package's
// JUnit report (vitest writes them; turbo restores them on cache hits).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['spec', 'docs', ...readdirSync('packages').map((p) => join('packages', p))];
let passed = 0;
let failed = 0;
let skipped = 0;
let reports = 0;
for (const root of roots) {
  const file = join(root, 'reports', 'junit.xml');
  if (!existsSync(file)) continue;
  reports++;
  const head = /<testsuites\b[^>]*>/.exec(readFileSync(file, 'utf8'))?.[0] ?? '';
  const count = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(head)?.[1] ?? 0);
  const tests = count('tests');
  const bad = count('failures') + count('errors');
  const skip = count('skipped');
  failed += bad;
  skipped += skip;
  passed += tests - bad - skip;
}
if (reports === 0) {
  console.error('No JUnit reports found: no test ran.');
  process.exit(1);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
