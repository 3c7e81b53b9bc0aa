import { fileURLToPath } from 'node:url';
import { type RunNodeScriptOptions, runNodeScript, type ScriptRun } from '@cloud-api/test-support';

export const cliPath = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

export type CliRun = ScriptRun;

/** Runs the built conformance CLI to completion (killed after `timeoutMs`). */
export function runCli(
  args: readonly string[],
  options: Pick<RunNodeScriptOptions, 'env' | 'timeoutMs' | 'onStart'> = {},
): Promise<CliRun> {
  return runNodeScript(cliPath, args, options);
}
