import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  describeListenFailure,
  parseServeArguments,
  SERVE_USAGE,
  type ServeArguments,
  ServeUsageError,
} from './serveArguments.js';
import { defaultSiteDir } from './sitePaths.js';
import { type RunningStaticServer, startStaticServer } from './staticServer.js';

/** Exit status of a bad command line or a missing site; 1 is left for unexpected failures. */
const EXIT_USAGE = 2;

async function main(): Promise<void> {
  let options: ServeArguments;
  try {
    options = parseServeArguments(process.argv.slice(2));
  } catch (error) {
    if (error instanceof ServeUsageError) throw new ServeUsageError(`${error.message}\n${SERVE_USAGE}`);
    throw error;
  }
  if (options.help) {
    console.log(SERVE_USAGE);
    return;
  }
  const siteDir = options.siteDir ?? defaultSiteDir;
  if (!existsSync(join(siteDir, 'index.html'))) {
    throw new ServeUsageError(
      options.siteDir === undefined
        ? `no built site in ${siteDir}; build it first with pnpm docs:build.`
        : `no built site in ${siteDir} (no index.html); pass the folder pnpm docs:build writes (docs/site).`,
    );
  }
  let server: RunningStaticServer;
  try {
    server = await startStaticServer(siteDir, options.port, options.host);
  } catch (error) {
    throw new ServeUsageError(describeListenFailure(error, options.host, options.port));
  }
  let stopping = false;
  const stop = () => {
    // A second Ctrl+C while closing must not kill the process half-way.
    if (stopping) return;
    stopping = true;
    void server.close().then(() => {
      console.log('docs: stopped.');
      process.exit(0);
    });
  };
  // Before the line that invites Ctrl+C, so an immediate one is already handled.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
  console.log(`docs: serving ${siteDir} at ${server.url} (Ctrl+C to stop)`);
}

// A closed stdout (e.g. piped into `head`) is no reason to stop serving.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

main().catch((error: unknown) => {
  if (error instanceof ServeUsageError) {
    console.error(`docs: ${error.message}`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  console.error(`docs: could not serve the site: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
