/**
 * Why convert's chunks and pages live in shared memory (SharedArrayBuffer)
 * and are never transferred: transferring an ArrayBuffer detaches it in the
 * thread that sends it, and the first detach in a worker invalidates V8's
 * "no buffer was ever detached" assumption for good. Every function that
 * was compiled on it is thrown away and compiled again, now with a check on
 * each typed array access: with the byte readers' loops (fast/json-tape.ts
 * and its users) that was ~40 functions compiled twice a worker and CSV ~20 %
 * slower (bench/README.md, "Export and convert on API-shaped articles"). Shared buffers go to the other thread
 * as they are; ownership passes by protocol, as it did with transfers (a
 * chunk is not touched until it comes back).
 */

/** The transfer list for a message holding these buffers: the ones that are not shared. */
export function transferList(...buffers: (ArrayBufferLike | undefined)[]): ArrayBuffer[] {
  return buffers.filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}
