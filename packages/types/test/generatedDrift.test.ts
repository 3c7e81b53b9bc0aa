import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
// @ts-expect-error plain ES module shared with `pnpm generate`; it has no type declarations
import { packageDir, regenerateCommand, renderGeneratedSources } from '../scripts/generatedSources.mjs';

describe('committed generated files', () => {
  test('match what the bundled spec generates today', { timeout: 60_000 }, async () => {
    const sources = (await renderGeneratedSources()) as Record<string, string>;
    expect(Object.keys(sources).length).toBeGreaterThan(0);
    for (const [relativePath, expected] of Object.entries(sources)) {
      const committed = readFileSync(join(packageDir as string, relativePath), 'utf8');
      // A bare `toBe` would print two 900-line files; say what to do instead.
      if (committed !== expected) {
        expect.fail(`${relativePath} is out of date with the spec: run \`${regenerateCommand}\``);
      }
    }
  });
});
