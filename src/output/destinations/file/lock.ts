/**
 * One run at a time per local state file: an overrunning cron job must not
 * interleave with the next one. The lock is `STATE.lock`, created with O_EXCL
 * and holding the owner's pid, host and start time. A lock whose process is
 * gone (kill -9, a reboot) is stale and taken over; the takeover renames it
 * first, so of two runs finding the same stale lock only one removes it.
 */
import { hostname } from 'node:os';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from '../../../api/errors.js';
import { fileProblem } from '../../file-errors.js';
import {
  type LockInfo,
  LockHeldError,
  type StateLock,
  alive,
  lockHeld,
  lockInfoOf,
  lockPathFor,
  parseLock,
} from '../lock-info.js';

async function readLock(path: string): Promise<LockInfo | undefined> {
  return parseLock(await readFile(path, 'utf8').catch(() => ''));
}

/** A lock is stale when its owner on this host is gone, or it cannot be read at all (a torn write). */
function isStale(info: LockInfo | undefined): boolean {
  if (info === undefined) return true;
  if (info.host !== hostname()) return false;
  return !alive(info.pid);
}

export async function acquireFileLock(stateFile: string, now: Date): Promise<StateLock> {
  const path = lockPathFor(stateFile);
  const mine = lockInfoOf(now);
  // A cron line may name a directory that does not exist yet, as -o may.
  await mkdir(dirname(path), { recursive: true }).catch(() => undefined);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(mine)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      let released = false;
      return {
        path,
        verify: async () => undefined,
        async release() {
          if (released) return;
          released = true;
          await unlink(path).catch(() => undefined);
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw unusableState(stateFile, error);
    }
    const info = await readLock(path);
    if (!isStale(info)) throw lockHeld(stateFile, info!, `if no such run exists, remove ${path}`);
    const aside = `${path}.stale.${process.pid}`;
    try {
      await rename(path, aside);
      await unlink(aside).catch(() => undefined);
    } catch (error) {
      // Someone else took it over first: try again to create ours.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new LockHeldError(`could not take the lock ${path}: other runs keep taking it`);
}

/** A state path that cannot be used (a directory, no permission): the user's to fix, exit 2. */
export function unusableState(stateFile: string, error: unknown): UsageError {
  const { reason, hint } = fileProblem('open', stateFile, error);
  return new UsageError(`cannot use --state ${stateFile}: ${reason}`, {
    hint: hint ?? 'point --state at a file in a directory you can write',
  });
}
