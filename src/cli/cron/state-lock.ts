/**
 * One run at a time per state file: an overrunning cron job must not
 * interleave with the next one. The lock is `STATE.lock`, created with O_EXCL
 * and holding the owner's pid, host and start time. A lock whose process is
 * gone (kill -9, a reboot) is stale and taken over; the takeover renames it
 * first, so of two runs finding the same stale lock only one removes it.
 * A state in a store (`s3://…`) has its lock there too (s3-lock.ts).
 */
import { hostname } from 'node:os';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { NewsError, UsageError } from '../../api/errors.js';
import { isS3Url } from '../../output/s3/url.js';

export interface LockInfo {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** Another live run holds the lock (exit 1). */
export class LockHeldError extends NewsError {
  override name = 'LockHeldError';
}

export interface StateLock {
  readonly path: string;
  /** Throws when the lock is no longer this run's (a store's lock taken over after it expired). */
  verify(): Promise<void>;
  release(): Promise<void>;
}

export function lockPathFor(stateFile: string): string {
  return `${stateFile}.lock`;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else; only ESRCH means gone.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The owner a lock's text names, or undefined when it names none (a torn or foreign file). */
export function parseLock(text: string): LockInfo | undefined {
  try {
    const info = JSON.parse(text) as Partial<LockInfo>;
    if (typeof info.pid !== 'number') return undefined;
    return {
      pid: info.pid,
      host: String(info.host ?? ''),
      since: String(info.since ?? 'an unknown time'),
    };
  } catch {
    return undefined;
  }
}

async function readLock(path: string): Promise<LockInfo | undefined> {
  return parseLock(await readFile(path, 'utf8').catch(() => ''));
}

/** A lock is stale when its owner on this host is gone, or it cannot be read at all (a torn write). */
function isStale(info: LockInfo | undefined): boolean {
  if (info === undefined) return true;
  if (info.host !== hostname()) return false;
  return !alive(info.pid);
}

export async function acquireLock(stateFile: string, now: Date): Promise<StateLock> {
  if (isS3Url(stateFile)) return (await import('./s3-lock.js')).acquireStoreLock(stateFile, now);
  const path = lockPathFor(stateFile);
  const mine: LockInfo = { pid: process.pid, host: hostname(), since: now.toISOString() };
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
      if (code !== 'EEXIST') throw unusableState(stateFile, code ?? String(error));
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

/** The error of a run that finds the lock held, the same for a file and a store. */
export function lockHeld(stateFile: string, info: LockInfo, hint: string): LockHeldError {
  const where = info.host === hostname() ? '' : ` on ${info.host}`;
  return new LockHeldError(
    `another run holds ${stateFile} since ${info.since} (pid ${info.pid}${where})`,
    { hint },
  );
}

/** A state path that cannot be used (a directory, no permission): the user's to fix, exit 2. */
export function unusableState(stateFile: string, code: string): UsageError {
  return new UsageError(`cannot use --state ${stateFile} (${code})`, {
    hint: 'point --state at a file in a directory you can write',
  });
}
