import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The house-rule and spec-diff tests run the Redocly CLI once per case.
    testTimeout: 60_000,
    reporters: ['default', ['junit', { outputFile: 'reports/junit.xml' }]],
  },
});
