/**
 * What the local lock (file/lock.ts) and the store's (s3/lock.ts) share:
 * who holds it, the one "another run holds …" error, and whether a pid on
 * this host still runs.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { NewsError } from '../../api/errors.js';
import { processGone } from '../atomic-file-sink.js';

export interface LockInfo {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
  /** Unique to one taking of the lock: how a run tells its own lock from another's in a store. */
  readonly token?: string | undefined;
}

/** This process's claim on a lock taken at `now`. */
export function lockInfoOf(now: Date): LockInfo {
  return {
    pid: process.pid,
    host: hostname(),
    since: now.toISOString(),
    token: randomBytes(8).toString('hex'),
  };
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

/** Whether a process with this id runs on this host. */
export function alive(pid: number): boolean {
  return !processGone(pid);
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
      token: typeof info.token === 'string' ? info.token : undefined,
    };
  } catch {
    return undefined;
  }
}

/** `since 2026-11-20T11:45:00.000Z (pid 1234 on builder-2)`: the run a lock names. */
export function describeHolder(info: LockInfo | undefined): string {
  if (info === undefined) return 'since an unknown time (a lock this tool did not write)';
  const where = info.host === hostname() ? '' : ` on ${info.host}`;
  return `since ${info.since} (pid ${info.pid}${where})`;
}

/** The error of a run that finds the lock held, the same for a file and a store. */
export function lockHeld(
  stateFile: string,
  info: LockInfo | undefined,
  hint: string,
): LockHeldError {
  return new LockHeldError(`another run holds ${stateFile} ${describeHolder(info)}`, { hint });
}

/** Whether the run a lock (or a pending commit) names is this process. */
export function isThisProcess(info: Pick<LockInfo, 'pid' | 'host'>): boolean {
  return info.pid === process.pid && info.host === hostname();
}
