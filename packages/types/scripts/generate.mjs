// Writes `src/generated/` from the bundled spec (`pnpm --filter @cloud-api/spec bundle` first).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageDir, renderGeneratedSources } from './generatedSources.mjs';

const sources = await renderGeneratedSources();
for (const [relativePath, text] of Object.entries(sources)) {
  const target = join(packageDir, relativePath);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${relativePath}`);
}
