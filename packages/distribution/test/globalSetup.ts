import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { type PackedInstall, packAndInstall, publishedPackages } from './packedInstall.js';

declare module 'vitest' {
  export interface ProvidedContext {
    packedInstall: PackedInstall;
  }
}

/**
 * One pack-and-install for the whole package: every test file reads the same installed app
 * (`inject('packedInstall')`), so the slow part runs once.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const installed = await packAndInstall();
  console.log(
    `packed ${Object.keys(publishedPackages).length} packages, installed them and ${installed.registryPackages} registry packages with npm --offline in ${installed.seconds.toFixed(1)} s`,
  );
  project.provide('packedInstall', installed);
  return async () => {
    if (!process.env.KEEP_PACKED_INSTALL) await rm(installed.work, { recursive: true, force: true });
  };
}
