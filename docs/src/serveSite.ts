import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSiteDir } from './buildSite.js';
import { startStaticServer } from './staticServer.js';

const DEFAULT_PORT = 4173;

function parsePort(argv: readonly string[]): number {
  const index = argv.indexOf('--port');
  const raw = index >= 0 ? argv[index + 1] : process.env.PORT;
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
}

async function main(): Promise<void> {
  if (!existsSync(join(defaultSiteDir, 'index.html'))) {
    console.error(`docs: no site in ${defaultSiteDir}; build it first with pnpm docs:build`);
    process.exitCode = 1;
    return;
  }
  const server = await startStaticServer(defaultSiteDir, parsePort(process.argv.slice(2)));
  console.log(`docs: serving ${defaultSiteDir} at ${server.url} (Ctrl+C to stop)`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`docs: could not serve the site: ${message}`);
  process.exitCode = 1;
});
