import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['junit', { outputFile: 'reports/junit.xml' }]],
    // The type tests (`*.test-d.ts`) are compiled by tsc as part of `vitest run`: a type that
    // became looser turns an `@ts-expect-error` into an unused directive, which fails the run.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
