/**
 * The lock of a state kept in a store (`--state s3://…`), for cron jobs on
 * several machines (docs/CRON.md, "The lock in a store"). It is a lease
 * (lease.ts). How it is taken depends on the store, probed once per
 * process and store with one conditional PUT (objects.ts):
 *
 * - a store that honours conditional writes (S3, MinIO, R2): `STATE.lock` is
 *   created with `If-None-Match: *`, which the store refuses (412) when the
 *   object exists, so of two runs only one creates it; the holder rewrites it
 *   with `If-Match` its own ETag, and a stale lock is taken over with
 *   `If-Match` the ETag read, so of two runs finding it only one gets it;
 * - a store that ignores them (s3rver, older MinIO, some gateways answer 200
 *   to a conditional PUT on an existing key): token-lock.ts.
 *
 * A holder whose lock is no longer its own fails verify(). Every write of the
 * state verifies first (run-state.ts), as does the removal of staged files
 * another run left (commit.ts), so the run stops before either.
 */
import { endpointFromEnv } from './client.js';
import { getText, honoursConditionalWrites, putText, remove } from './objects.js';
import { parseS3Url } from './url.js';
import {
  type LockInfo,
  LockHeldError,
  type StateLock,
  lockHeld,
  lockInfoOf,
  lockPathFor,
  parseLock,
} from '../lock-info.js';
import { LEASE_MS, heldHint, holding, isStaleLease, lostLock } from './lease.js';
import { SETTLE_MS, acquireByToken } from './token-lock.js';

export { LEASE_MS, RENEW_MS, isStaleLease } from './lease.js';

/** The stores probed in this process (endpoint and bucket): whether each honours conditional writes. */
const probed = new Map<string, Promise<boolean>>();

/**
 * Takes the lock on a state in a store. `notice` hears, once per store and
 * process, that the store ignores conditional writes.
 */
export async function acquireStoreLock(
  stateFile: string,
  now: Date,
  notice?: (message: string) => void,
): Promise<StateLock> {
  const path = lockPathFor(stateFile);
  const endpoint = endpointFromEnv();
  const store = `${endpoint ?? ''} ${parseS3Url(stateFile).bucket}`;
  let probe = probed.get(store);
  const first = probe === undefined;
  if (probe === undefined) {
    probe = honoursConditionalWrites(`${path}.probe`);
    probed.set(store, probe);
    probe.catch(() => probed.delete(store));
  }
  if (await probe) return acquireConditional(stateFile, now);
  if (first) {
    notice?.(
      `the store${endpoint === undefined ? '' : ` at ${endpoint}`} ignores conditional writes (it let a PUT with If-None-Match: * replace an object): the lock on ${stateFile} is taken by writing a token and reading it back ${SETTLE_MS / 1000} s later, and read again before each step another run could clash with`,
    );
  }
  return acquireByToken(stateFile, now);
}

async function acquireConditional(stateFile: string, now: Date): Promise<StateLock> {
  const path = lockPathFor(stateFile);
  const mine: LockInfo = lockInfoOf(now);
  const body = `${JSON.stringify(mine)}\n`;
  let etag: string | undefined;
  for (let attempt = 0; attempt < 3 && etag === undefined; attempt++) {
    etag = await putText(path, body, { ifNoneMatch: '*' });
    if (etag !== undefined) break;
    const found = await getText(path);
    if (found === undefined) continue; // released meanwhile: try to create it again
    const info = parseLock(found.text);
    if (!isStaleLease(info, found.lastModified, new Date())) {
      throw lockHeld(stateFile, info, heldHint(path));
    }
    if (found.etag !== undefined) etag = await putText(path, body, { ifMatch: found.etag });
  }
  if (etag === undefined) {
    throw new LockHeldError(`could not take the lock ${path}: other runs keep taking it`);
  }
  let held = etag;
  const renew = async (): Promise<Error | undefined> => {
    const next = await putText(path, body, { ifMatch: held });
    if (next !== undefined) {
      held = next;
      return undefined;
    }
    return lostLock(
      stateFile,
      await getText(path).catch(() => undefined),
      `this run was stalled longer than the lease (${LEASE_MS / 60_000} minutes); nothing more of it is recorded`,
    );
  };
  return holding(path, { renew, check: renew, remove: () => remove(path) });
}
