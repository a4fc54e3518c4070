/**
 * What the local lock (state-lock.ts) and the store's (s3-lock.ts) share:
 * who holds it, the one "another run holds …" error, and whether a pid on
 * this host still runs.
 */
import { hostname } from 'node:os';
import { NewsError } from '../../api/errors.js';

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

/** The error of a run that finds the lock held, the same for a file and a store. */
export function lockHeld(stateFile: string, info: LockInfo, hint: string): LockHeldError {
  const where = info.host === hostname() ? '' : ` on ${info.host}`;
  return new LockHeldError(
    `another run holds ${stateFile} since ${info.since} (pid ${info.pid}${where})`,
    { hint },
  );
}
