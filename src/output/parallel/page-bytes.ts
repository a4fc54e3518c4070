/** Encoded pages' bytes, as convert's workers hand them to the main thread. */

/**
 * The bytes of a page, for the main thread: copied into `spare` (a page
 * buffer the main thread has written and handed back) when they fit, else
 * into a new buffer with some room, which comes back as a spare in turn.
 * Fresh buffers of every size for every page, freed by the main thread, left
 * this thread's malloc arena fragmented: it grew all through a long convert
 * (12 MB at 10k articles, 45 MB at 100k, in each worker). Shared memory, so
 * that nothing is transferred (parallel/shared.ts).
 */
export function pageBytes(bytes: Uint8Array, spare: ArrayBufferLike | undefined): Uint8Array {
  const out =
    spare !== undefined && spare.byteLength >= bytes.length
      ? new Uint8Array(spare, 0, bytes.length)
      : new Uint8Array(new SharedArrayBuffer(Math.ceil(bytes.length * 1.25)), 0, bytes.length);
  out.set(bytes);
  return out;
}
