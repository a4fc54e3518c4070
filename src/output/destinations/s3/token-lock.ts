/**
 * The lock in a store that ignores conditional writes (lock.ts): nothing
 * there refuses a second writer, so the last writer wins, and each run finds
 * out which it is by reading the lock back.
 *
 * To take it: read `STATE.lock` (a live holder's lock, or a fresh lease, ends
 * the run as on disk); write this run's own, with a token no other run has;
 * wait SETTLE_MS, long past the time a PUT takes, so that any run that read
 * the lock when this one did has written its own by then; read it again. The
 * run whose token is there holds the lock; the others exit 1 naming it.
 * Renewing reads before it writes, and releasing removes only this run's
 * lock. Before every write of the state and before removing staged files
 * another run left, the token is read again (verify()), so a run whose
 * token was replaced, however late, stops before it can clash.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { getText, putText, remove } from './objects.js';
import {
  LockHeldError,
  type StateLock,
  lockHeld,
  lockInfoOf,
  lockPathFor,
  parseLock,
} from '../lock-info.js';
import { LEASE_MS, heldHint, holding, isStaleLease, lostLock } from './lease.js';

/** How long a run waits after writing its token before it reads the lock back. */
export const SETTLE_MS = 1_000;

export async function acquireByToken(stateFile: string, now: Date): Promise<StateLock> {
  const path = lockPathFor(stateFile);
  const mine = lockInfoOf(now);
  const body = `${JSON.stringify(mine)}\n`;
  const ours = async (): Promise<Error | undefined> => {
    const found = await getText(path);
    if (found !== undefined && parseLock(found.text)?.token === mine.token) return undefined;
    return lostLock(
      stateFile,
      found,
      `on a store that ignores conditional writes two runs can take the lock at once (or this run was stalled longer than the ${LEASE_MS / 60_000}-minute lease): the other goes on, and nothing more of this one is recorded`,
    );
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const found = await getText(path);
    if (found !== undefined) {
      const info = parseLock(found.text);
      if (!isStaleLease(info, found.lastModified, new Date())) {
        throw lockHeld(stateFile, info, heldHint(path));
      }
    }
    await putText(path, body);
    await sleep(SETTLE_MS);
    const back = await getText(path);
    if (back === undefined) continue; // removed meanwhile (a holder releasing it): try again
    const info = parseLock(back.text);
    if (info?.token === mine.token) {
      return holding(path, {
        check: ours,
        async renew() {
          const lost = await ours();
          if (lost === undefined) await putText(path, body);
          return lost;
        },
        async remove() {
          if ((await ours()) === undefined) await remove(path);
        },
      });
    }
    // Written after ours: that run holds it.
    throw lockHeld(stateFile, info, heldHint(path));
  }
  throw new LockHeldError(`could not take the lock ${path}: other runs keep taking it`);
}
