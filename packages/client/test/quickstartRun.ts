import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runNodeScript, type ScriptRun } from '@cloud-api/test-support';
import ts from 'typescript';

export const packageDir = join(import.meta.dirname, '..');
export const quickstartPath = join(packageDir, 'examples', 'quickstart.ts');

/** examples/quickstart.ts as the JavaScript a user's TypeScript build would emit (ES2022 modules). */
export async function quickstartJavaScript(): Promise<string> {
  const source = await readFile(quickstartPath, 'utf8');
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

/**
 * Runs the quickstart, unchanged, as a program in `dir`, where `@cloud-api/client` must resolve
 * from `dir/node_modules` (a symlink to this package, or an installed tarball).
 */
export async function runQuickstart(dir: string, env: NodeJS.ProcessEnv): Promise<ScriptRun> {
  const script = join(dir, 'quickstart.mjs');
  await writeFile(script, await quickstartJavaScript());
  return runNodeScript(script, [], { cwd: dir, env: { PATH: process.env.PATH, ...env }, timeoutMs: 30_000 });
}

/** Makes `dir/node_modules/@cloud-api/client` this package (its built `dist`, as published). */
export async function linkThisPackage(dir: string): Promise<void> {
  await mkdir(join(dir, 'node_modules', '@cloud-api'), { recursive: true });
  await symlink(packageDir, join(dir, 'node_modules', '@cloud-api', 'client'), 'dir');
}
