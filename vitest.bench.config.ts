import { defineConfig } from 'vitest/config';

// Benchmarks live apart from the tests: they measure, they never gate `npm test`.
export default defineConfig({
  test: {
    include: [],
    benchmark: { include: ['bench/**/*.bench.ts'] },
    pool: 'forks',
  },
});
