import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Temporary directories of the run go under one directory, removed at its end.
    globalSetup: ['test/scratchTmpdir.setup.ts'],
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['junit', { outputFile: 'reports/junit.xml' }]],
    testTimeout: 30_000,
  },
});
