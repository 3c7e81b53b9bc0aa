import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['junit', { outputFile: 'reports/junit.xml' }]],
    // One pack-and-install, shared by every test file (see test/globalSetup.ts).
    globalSetup: ['test/scratchTmpdir.setup.ts', 'test/globalSetup.ts'],
    // The files share that one installed app and each starts servers: one file at a time.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
