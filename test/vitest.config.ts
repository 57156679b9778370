import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: {
    // Pothos loads graphql through Node (CommonJS main); the sources must share that one instance.
    alias: { graphql: 'graphql/index.js' },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // The default summary, and the figures tests report with annotate (support/annotations-reporter.ts).
    reporters: ['default', './test/support/annotations-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
