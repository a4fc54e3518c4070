import { accessSync, chmodSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs';
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

/** Free space a memory file system needs to hold the suite's temp folders: a few at once, each up to ~200 MB. */
const MEMORY_FS_FREE = 8 * 1024 ** 3;

/**
 * Where the roots go: /dev/shm when TMPDIR is not set and it is a writable
 * memory file system with room to spare (Linux; a container's 64 MB one is
 * passed over), else the machine's temp folder. The suite writes and
 * removes hundreds of MB of conversions, spools, stores and databases: on
 * this 2-core machine's disk (ext4) the built tests spent 56 s in the
 * kernel, 46 s in memory, 18 s of CPU less in all (bench/README.md, "The
 * test suite").
 */
function tempParent(): string {
  if (process.env['TMPDIR'] !== undefined || process.platform !== 'linux') return tmpdir();
  try {
    accessSync('/dev/shm', constants.W_OK);
    const fs = statfsSync('/dev/shm');
    if (fs.bavail * fs.bsize >= MEMORY_FS_FREE) return '/dev/shm';
  } catch {
    // No /dev/shm: the temp folder.
  }
  return tmpdir();
}

/** The parent of the roots, chosen once per process tree, before a file's TMPDIR pointed into its root. */
function systemTmp(): string {
  process.env['NEWS_TEST_SYSTEM_TMPDIR'] ??= tempParent();
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
