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
    // The default summary (a line per file), how far a piped run is (support/progress-reporter.ts), and the
    // figures tests report with annotate (support/annotations-reporter.ts).
    reporters: ['default', './test/support/progress-reporter.ts', './test/support/annotations-reporter.ts'],
    // Three files side by side whatever the cores (vitest's default is one fewer than the cores: one on 2):
    // most of a file's time is spent waiting on sockets, child processes and timers.
    maxWorkers: 3,
    // A worker runs file after file without loading the modules again (loading the gateway's is most of a
    // small file's time): a file closes all it starts, no test mocks a module, and a test that sets an
    // environment variable or a spy restores it.
    isolate: false,
    // Generous: three files at a time on a loaded machine (building GraphiQL's compressed page alone takes
    // seconds of CPU).
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
