import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Kept apart from buildSite.ts so that serving a built site does not load the spec package.
export const docsPackageDir = fileURLToPath(new URL('..', import.meta.url));
export const defaultSiteDir = join(docsPackageDir, 'site');
