import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { testProjects } from './test/helpers/test-projects.js';

// Five projects (test/helpers/test-projects.ts says which file goes where):
// "unit" and "unit-own-process" run against the sources in-process and need
// no build (`npm run test:fast`, the edit loop); "unit-slow" is in-process
// too, but each of its files takes seconds; "built" holds the files that
// spawn bin/news.js or read dist/, and builds dist/ first when it is missing
// or stale (test/helpers/build-once.ts); "isolated" holds the slow or built
// files that change their process (a process each, after the build).
// `npm test` runs all five. All but the two own-process projects run several
// files to a process (`isolate: false`): the sources are imported once per
// process.
const files = testProjects();

// One worker more than the cores: most files spend much of their time
// waiting on a server, a child process, a pipe or a clock, and on a 2-core
// machine three workers kept the cores busier than two: the whole suite in
// 199 s against 227 s, quiet machine, the longest test 11 s of its 20 s
// (bench/README.md, "The test suite"). vitest's default (cores - 1) ran a
// 2-core machine's files one at a time. NEWS_TEST_WORKERS overrides it (1 to
// run the files one at a time, 2 on a machine that other work shares).
const workers = Number(process.env['NEWS_TEST_WORKERS']) || availableParallelism() + 1;

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: workers,
    // Removes each file's temp folders (test/helpers/scratch.ts) after its tests.
    setupFiles: ['test/helpers/scratch-cleanup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: files.shared, isolate: false },
      },
      {
        extends: true,
        test: { name: 'unit-own-process', include: files.ownProcess },
      },
      {
        extends: true,
        test: { name: 'unit-slow', include: files.slow, isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'built',
          include: files.built,
          isolate: false,
          globalSetup: ['test/helpers/build-once.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: files.isolated,
          globalSetup: ['test/helpers/build-once.ts'],
        },
      },
    ],
  },
});
