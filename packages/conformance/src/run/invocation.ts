import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How the user ran this CLI, so a printed command runs as printed from any directory:
 * `pnpm -C <workspace> conformance` in this repository's workspace, `npx cloud-api-conformance`
 * in a subshell that enters the project it is installed in, else `node <absolute path to cli.js>`.
 * npx gets `--no`: were the package gone from that project, a bare `npx` would fetch whatever the
 * registry serves under the unscoped name, and run it without asking where there is no terminal.
 */
export function cliInvocation(
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
  cwd: string = process.cwd(),
): string {
  const script = resolve(cwd, argv[1] ?? 'cli.js');
  const agent = env.npm_config_user_agent ?? '';
  // pnpm runs a script in the directory of the package.json that defines it.
  if (env.npm_lifecycle_event === 'conformance' && agent.startsWith('pnpm/'))
    return `pnpm -C ${shellQuoted(cwd)} conformance`;
  const installedIn = /^(.*?)[\\/]node_modules[\\/]/.exec(script)?.[1];
  if (installedIn !== undefined && (env.npm_command === 'exec' || agent.startsWith('npm/')))
    return `cd ${shellQuoted(installedIn || '/')} && npx --no -- cloud-api-conformance`;
  return `node ${shellQuoted(script)}`;
}

/**
 * The CLI of this installed package, by absolute path: what a run started from code (the vitest
 * adapter, `runConformance`) prints to replay a failure, from any directory.
 */
export function installedCliCommand(): string {
  return `node ${shellQuoted(fileURLToPath(new URL('../../bin/cloud-api-conformance.js', import.meta.url)))}`;
}

/** A word for a POSIX shell: as it is when it holds nothing the shell would read, else single-quoted. */
export function shellQuoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
