#!/usr/bin/env node
// The command, committed so that installing the workspace can link it before anything is built.
try {
  await import('../dist/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/cli.js')) throw error;
  process.stderr.write(
    'cloud-api-sandbox: this package is not built yet (no dist/cli.js). In its repository run `pnpm build` first.\n',
  );
  process.exit(2);
}
