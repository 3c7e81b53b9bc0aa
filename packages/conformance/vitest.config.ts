import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Temporary directories of the run go under one directory, removed at its end.
    globalSetup: ['test/scratchTmpdir.setup.ts'],
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['junit', { outputFile: 'reports/junit.xml' }]],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // The end-to-end tests start targets and nested vitest runs: two at a time is plenty on 2 cores.
    maxWorkers: 2,
    // The chaos suite runs its hostile-target CLIs concurrently; more than 2 at once on 2 cores
    // (beside another test file) would measure the machine's load instead of the CLI's deadlines.
    maxConcurrency: 2,
  },
});
