import { defaultSiteDir } from './sitePaths.js';

// The site builder is loaded only here, so that a missing spec build is reported in one line
// naming the command to run, instead of as a module-resolution stack trace.
async function main(): Promise<void> {
  let buildSite: () => Promise<void>;
  try {
    ({ buildSite } = await import('./buildSite.js'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      const missing = /Cannot find (?:module|package) '([^']+)'/.exec((error as Error).message)?.[1] ?? '';
      throw new Error(
        /@cloud-api[/\\]spec/.test(missing)
          ? `the spec is not built (${missing} is missing). Run pnpm docs:build from the repository root: it builds the spec first.`
          : `${missing || 'a dependency'} is missing. Run pnpm install at the repository root, then pnpm docs:build.`,
      );
    }
    throw error;
  }
  const started = Date.now();
  await buildSite();
  console.log(`docs: site built in ${defaultSiteDir} (${Date.now() - started} ms)`);
}

main().catch((error: unknown) => {
  console.error(`docs: build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
