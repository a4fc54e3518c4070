import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Removes each file's temp folders (test/helpers/scratch.ts) after its tests.
    setupFiles: ['test/helpers/scratch-cleanup.ts'],
  },
});
