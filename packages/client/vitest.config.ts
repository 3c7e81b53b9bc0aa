import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Temporary directories of the run go under one directory, removed at its end.
    globalSetup: ['test/scratchTmpdir.setup.ts'],
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['junit', { outputFile: 'reports/junit.xml' }]],
    // Property tests run thousands of cases; on a loaded 2-core CI machine (other suites beside
    // them) 5 s is not enough, and their point is the counterexample, not the speed.
    testTimeout: 60_000,
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
