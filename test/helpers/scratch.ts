import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Helpers called once per test (a config home per `runCli`, an export folder
// per case) used to leave thousands of folders in the OS temp dir per
// `npm test`. They now make their folders inside one root per test file,
// which scratch-cleanup.ts (a vitest setup file) removes after the file's
// last test. An `exit` handler would not do: vitest ends its worker processes
// without running them.

let root: string | undefined;

/** The one temp folder of this test file that `scratchDir` fills. */
export function scratchRoot(): string {
  root ??= mkdtempSync(join(tmpdir(), 'news-test-'));
  return root;
}

/** A fresh empty folder of its own (named `prefix` + random), removed after the file's tests. */
export function scratchDir(prefix: string): string {
  return mkdtempSync(join(scratchRoot(), prefix));
}

/** Removes the root and all in it; the next `scratchDir` makes a new one. */
export function removeScratchRoot(): void {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
}
