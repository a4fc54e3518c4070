/**
 * The vitest globalSetup of the "built" project (vitest.config.ts): the tests
 * that spawn bin/news.js or read dist/ need a build of the code they test.
 * Builds once per run, before any of them starts, when dist/ is missing or
 * older than what it is built from; a fresh dist/ (as `npm ci` leaves it) is
 * used as it is, so CI builds once.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** What the build reads: a change to any of them makes dist/ stale. */
const INPUTS = [
  'src',
  'build',
  'fixtures/data',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

/**
 * The build's last writes (build/train-code-cache.mjs, after everything else):
 * a build that failed half-way leaves them older than the sources.
 */
const LAST_OUTPUTS = ['dist/bundle/start.cache', 'dist/bundle/lazy.cache'];

function newestUnder(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestUnder(join(path, entry)));
  return newest;
}

/** Why dist/ must be built, or undefined when it is up to date. */
export function staleReason(dir = root): string | undefined {
  let builtAt = Number.POSITIVE_INFINITY;
  for (const output of LAST_OUTPUTS) {
    const stat = statSync(join(dir, output), { throwIfNoEntry: false });
    if (stat === undefined) return `${output} is missing`;
    builtAt = Math.min(builtAt, stat.mtimeMs);
  }
  for (const input of INPUTS)
    if (newestUnder(join(dir, input)) > builtAt) return `${input} changed since the last build`;
  return undefined;
}

export default function setup(): void {
  // NEWS_TEST_NO_BUILD=1: use dist/ as it is (a build made elsewhere, or a
  // deliberate test of a stale one).
  if (process.env['NEWS_TEST_NO_BUILD'] === '1') return;
  const why = staleReason();
  if (why === undefined) return;
  process.stderr.write(`tests that spawn bin/news.js: building dist/ (${why})\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const built = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status})`);
}
