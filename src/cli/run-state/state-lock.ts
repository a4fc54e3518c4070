/**
 * One run at a time per state: an overrunning cron job must not interleave
 * with the next one. The lock is the state's store's own (a local O_EXCL file,
 * a lease in an object store: output/destinations/); this file keeps the
 * locks this process holds, so every write of a state can check its lock.
 */
import { storeOf } from '../../output/destinations/registry.js';
import type { StateLock } from '../../output/destinations/lock-info.js';

export { LockHeldError } from '../../output/destinations/lock-info.js';
export type { LockInfo, StateLock } from '../../output/destinations/lock-info.js';
export { unusableState } from '../../output/destinations/file/lock.js';

/** The locks this process holds, by state file: every write of a state checks its lock first. */
const held = new Map<string, StateLock>();

/**
 * Takes the lock on a state file. `notice` hears what the user should know
 * about it (a store that ignores conditional writes, once).
 */
export async function acquireLock(
  stateFile: string,
  now: Date,
  notice?: (message: string) => void,
): Promise<StateLock> {
  const lock = await storeOf(stateFile).lock(stateFile, now, notice);
  const mine: StateLock = {
    path: lock.path,
    verify: () => lock.verify(),
    async release() {
      if (held.get(stateFile) === mine) held.delete(stateFile);
      await lock.release();
    },
  };
  held.set(stateFile, mine);
  return mine;
}

/**
 * Before a state is written: fails when this process took the lock on it
 * and has lost it since (a store's lease taken over while the run was
 * stalled), so a run that lost its lock never writes its older watermark
 * over the one its successor recorded. Nothing to check when no lock is held.
 */
export async function verifyLockOn(stateFile: string): Promise<void> {
  await held.get(stateFile)?.verify();
}
