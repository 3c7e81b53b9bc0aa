import { readFileSync } from 'node:fs';

/** This package's version, from its package.json (the report and `--version` print it). */
export function suiteVersion(): string {
  try {
    const manifest = new URL('../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
