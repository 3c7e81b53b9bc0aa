import { resolve } from 'node:path';

/**
 * How the user ran this CLI, so a printed command runs as printed from any directory:
 * `pnpm -C <workspace> conformance` in this repository's workspace, `npx cloud-api-conformance`
 * in a subshell that enters the project it is installed in, else `node <absolute path to cli.js>`.
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
    return `cd ${shellQuoted(installedIn || '/')} && npx cloud-api-conformance`;
  return `node ${shellQuoted(script)}`;
}

/** A word for a POSIX shell: as it is when it holds nothing the shell would read, else single-quoted. */
export function shellQuoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
