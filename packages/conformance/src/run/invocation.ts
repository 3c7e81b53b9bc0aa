import { relative } from 'node:path';

/**
 * How the user ran this CLI, so a printed command can be run as printed: `pnpm conformance` in
 * this repository's workspace, `npx cloud-api-conformance` when installed from npm and run
 * through npx (or an npm script), else `node <path to cli.js>`.
 */
export function cliInvocation(
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
): string {
  const script = argv[1] ?? 'cli.js';
  const agent = env.npm_config_user_agent ?? '';
  if (env.npm_lifecycle_event === 'conformance' && agent.startsWith('pnpm/')) return 'pnpm conformance';
  if (/[\\/]node_modules[\\/]/.test(script) && (env.npm_command === 'exec' || agent.startsWith('npm/')))
    return 'npx cloud-api-conformance';
  const shown = relative(process.cwd(), script);
  return `node ${shellQuoted(shown.startsWith('..') || shown === '' ? script : shown)}`;
}

/** A word for a POSIX shell: as it is when it holds nothing the shell would read, else single-quoted. */
export function shellQuoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
