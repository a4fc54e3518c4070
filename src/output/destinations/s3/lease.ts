/**
 * What both ways of holding a lock in a store share (lock.ts): the lease
 * (a lock not rewritten for LEASE_MS belongs to a run that died; on this
 * host, one whose process is gone is taken over at once, as on disk), the
 * renewal timer, and the error of a holder whose lock is no longer its own.
 */
import { hostname } from 'node:os';
import { NewsError } from '../../../api/errors.js';
import type { StoredText } from './objects.js';
import { type LockInfo, type StateLock, alive, describeHolder, parseLock } from '../lock-info.js';

/** A lock not rewritten for this long is a dead run's. */
export const LEASE_MS = 5 * 60_000;
/** How often the holder rewrites it: several times within a lease. */
export const RENEW_MS = 60_000;

/** Whether a lock read from the store may be taken over at `now`. */
export function isStaleLease(
  info: LockInfo | undefined,
  lastModified: Date | undefined,
  now: Date,
): boolean {
  if (info !== undefined && info.host === hostname() && !alive(info.pid)) return true;
  if (lastModified === undefined) return false;
  return now.getTime() - lastModified.getTime() > LEASE_MS;
}

/** The hint of a run that finds the lock held. */
export function heldHint(path: string): string {
  return `if no such run exists, remove ${path}; a lock not renewed for ${LEASE_MS / 60_000} minutes is taken over`;
}

/** The error of a holder whose lock is no longer its own, naming the run that has it now. */
export function lostLock(stateFile: string, found: StoredText | undefined, hint: string): Error {
  const holder =
    found === undefined
      ? 'which has released it since'
      : `which holds it ${describeHolder(parseLock(found.text))}`;
  return new NewsError(`the lock on ${stateFile} was taken over by another run, ${holder}`, {
    hint,
  });
}

/** The moves of one way of holding the lock; `holding` adds the renewal timer. */
export interface Lease {
  /** Rewrites the lock while it is this run's; the error to stop with when it is not. */
  renew(): Promise<Error | undefined>;
  /** Whether it is still this run's, before a step that must not clash with another run. */
  check(): Promise<Error | undefined>;
  /** Removes it if it is still this run's. */
  remove(): Promise<void>;
}

export function holding(path: string, lease: Lease): StateLock {
  let lost: Error | undefined;
  let pending: Promise<void> = Promise.resolve();
  const queue = (move: () => Promise<Error | undefined>): Promise<void> => {
    pending = pending.then(async () => {
      if (lost !== undefined) return;
      try {
        lost = await move();
      } catch {
        // The store did not answer: the next tick tries again, well within the lease.
      }
    });
    return pending;
  };
  const timer = setInterval(() => void queue(() => lease.renew()), RENEW_MS);
  timer.unref();
  let released = false;
  return {
    path,
    async verify() {
      await queue(() => lease.check());
      if (lost !== undefined) throw lost;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await pending;
      if (lost === undefined) await lease.remove().catch(() => undefined);
    },
  };
}
