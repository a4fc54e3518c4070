import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Each test file has one temp folder, its root, which scratch-cleanup.ts (a
// vitest setup file) makes the file's TMPDIR before the file is imported and
// removes after its last test. Everything the file and the processes it
// spawns put in the OS temp dir (`mkdtempSync(join(tmpdir(), …))`, a spool,
// a killed run's leftovers) goes with it: before, each run of the suite
// left about 2 GB in /tmp (convert-parallel 1.4 GB, convert-bytes 0.5 GB)
// and a folder for nearly every spawned run. An `exit` handler would not
// do: vitest ends its worker processes without running them.

let root: string | undefined;

/** The machine's temp folder, before a file's TMPDIR pointed into its root. */
function systemTmp(): string {
  process.env['NEWS_TEST_SYSTEM_TMPDIR'] ??= tmpdir();
  return process.env['NEWS_TEST_SYSTEM_TMPDIR'];
}

/** The one temp folder of this test file (its TMPDIR too, once `tmpIntoScratch` ran). */
export function scratchRoot(): string {
  if (root === undefined) {
    root = mkdtempSync(join(systemTmp(), 'news-test-'));
    // Other users cross it: PostgreSQL, which refuses root, runs as its own user on a folder in it.
    chmodSync(root, 0o755);
  }
  return root;
}

/** A fresh empty folder of its own (named `prefix` + random), removed after the file's tests. */
export function scratchDir(prefix: string): string {
  return mkdtempSync(join(scratchRoot(), prefix));
}

/** Points TMPDIR (os.tmpdir(), and the processes the file spawns) into the root. */
export function tmpIntoScratch(): void {
  systemTmp();
  const dir = scratchRoot();
  process.env['TMPDIR'] = dir;
  // os.tmpdir() reads the real environment, which a plain object put in place
  // of process.env by an earlier file of this process no longer reaches.
  if (tmpdir() !== dir) {
    throw new Error(
      `TMPDIR did not take (os.tmpdir() is ${tmpdir()}): a test file before this one in the process replaced process.env; put its keys back one by one instead`,
    );
  }
}

/** Removes the root and all in it, and gives TMPDIR back; the next `scratchDir` makes a new root. */
export function removeScratchRoot(): void {
  if (process.env['NEWS_TEST_SYSTEM_TMPDIR'] !== undefined)
    process.env['TMPDIR'] = process.env['NEWS_TEST_SYSTEM_TMPDIR'];
  if (root !== undefined) rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  root = undefined;
}
