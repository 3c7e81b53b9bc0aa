import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** This package's version, from its package.json (the report and `--version` print it). */
export function suiteVersion(): string {
  try {
    const manifest = new URL('../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

let build: string | undefined;

/**
 * Which checks ran: a digest of the check modules' code, so two reports of one version whose
 * checks differ (a build between releases) say so. The version alone does not change with them.
 */
export function suiteBuild(): string {
  if (build !== undefined) return build;
  try {
    const dir = new URL('../checks/', import.meta.url);
    const hash = createHash('sha256');
    for (const name of readdirSync(dir).sort())
      if (/\.(js|ts)$/.test(name) && !name.endsWith('.d.ts'))
        hash.update(name).update(readFileSync(new URL(name, dir)));
    build = `checks-${hash.digest('hex').slice(0, 12)}`;
  } catch {
    build = 'unknown';
  }
  return build;
}
