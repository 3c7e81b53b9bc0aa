import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['junit', { outputFile: 'reports/junit.xml' }]],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // The end-to-end tests start targets and nested vitest runs: two at a time is plenty on 2 cores.
    maxWorkers: 2,
  },
});
