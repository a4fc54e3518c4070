/**
 * The lock of a state kept in a store (`--state s3://…`), for cron jobs on
 * several machines: `STATE.lock` is created with a conditional PUT
 * (`If-None-Match: *`), which S3, MinIO and R2 refuse with 412 when the object
 * exists, so of two runs only one creates it. It is a lease: the holder
 * rewrites it every minute (`If-Match` its own ETag), and a lock the store
 * has not seen rewritten for LEASE_MS (its Last-Modified) belongs to a run
 * that died; the next run takes it over with `If-Match` the ETag it read, so
 * of two runs finding the same dead lock only one gets it. On this host, a
 * lock whose process is gone is taken over at once, as on disk.
 *
 * A holder whose rewrite is refused has lost the lock (it was stalled longer
 * than the lease): verify() then fails. Every write of the state verifies
 * first (run-state.ts), so the run stops before it writes the state again.
 */
import { hostname } from 'node:os';
import { NewsError } from '../../api/errors.js';
import type { StoredText } from '../../output/s3/objects.js';
import {
  type LockInfo,
  LockHeldError,
  type StateLock,
  alive,
  lockHeld,
  lockPathFor,
  parseLock,
} from './lock-info.js';

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

export async function acquireStoreLock(stateFile: string, now: Date): Promise<StateLock> {
  const { getText, putText, remove } = await import('../../output/s3/objects.js');
  const path = lockPathFor(stateFile);
  const mine: LockInfo = { pid: process.pid, host: hostname(), since: now.toISOString() };
  const body = `${JSON.stringify(mine)}\n`;
  let etag: string | undefined;
  for (let attempt = 0; attempt < 3 && etag === undefined; attempt++) {
    etag = await putText(path, body, { ifNoneMatch: '*' });
    if (etag !== undefined) break;
    const found: StoredText | undefined = await getText(path);
    if (found === undefined) continue; // released meanwhile: try to create it again
    const info = parseLock(found.text);
    if (!isStaleLease(info, found.lastModified, new Date())) {
      throw lockHeld(
        stateFile,
        info ?? { pid: 0, host: 'an unknown host', since: 'an unknown time' },
        `if no such run exists, remove ${path}; a lock not renewed for ${LEASE_MS / 60_000} minutes is taken over`,
      );
    }
    if (found.etag !== undefined) etag = await putText(path, body, { ifMatch: found.etag });
  }
  if (etag === undefined) {
    throw new LockHeldError(`could not take the lock ${path}: other runs keep taking it`);
  }

  let held: string | undefined = etag;
  let lost: Error | undefined;
  let renewing: Promise<void> = Promise.resolve();
  const renew = async (): Promise<void> => {
    if (held === undefined) return;
    try {
      const next = await putText(path, body, { ifMatch: held });
      if (next === undefined) {
        held = undefined;
        lost = new NewsError(`the lock on ${stateFile} was taken over by another run`, {
          hint: `this run was stalled longer than the lease (${LEASE_MS / 60_000} minutes); nothing of it was recorded`,
        });
      } else held = next;
    } catch {
      // The store did not answer: the next tick tries again, well within the lease.
    }
  };
  const timer = setInterval(() => {
    renewing = renewing.then(renew);
  }, RENEW_MS);
  timer.unref();
  let released = false;
  return {
    path,
    async verify() {
      renewing = renewing.then(renew);
      await renewing;
      if (lost !== undefined) throw lost;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await renewing;
      if (held !== undefined) await remove(path).catch(() => undefined);
    },
  };
}
