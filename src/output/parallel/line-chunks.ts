/**
 * Cuts a byte stream into chunks of about `size()` bytes that end at a line
 * end, so each can be parsed on its own (by a worker thread). A chunk ends
 * without a line end only at the end of the input, or when no line end came
 * for MAX_PENDING bytes (a file that is one long line): that chunk is not
 * `whole`, and only a reader that carries the partial line over (the main
 * thread's) can take it.
 */
const NL = 0x0a;
export const MAX_PENDING = 16 * 1024 * 1024;

export interface LineChunk {
  readonly bytes: Buffer;
  /** Ends at a line end, or at the end of the input. */
  readonly whole: boolean;
  /** The input's last chunk. */
  readonly last?: boolean;
}

/**
 * Buffers for chunks, used again once a worker gives them back: 1.3 GB of
 * input through fresh buffers kept ~60 MB of garbage ArrayBuffers waiting
 * for the main thread's GC. They are shared memory (parallel/shared.ts):
 * a worker reads its chunk where it is, nothing is transferred.
 */
export class ChunkBuffers {
  private readonly free: SharedArrayBuffer[] = [];

  take(size: number): Buffer {
    const i = this.free.findIndex((b) => b.byteLength >= size);
    if (i < 0) return Buffer.from(new SharedArrayBuffer(Math.ceil(size * 1.25)), 0, size);
    return Buffer.from(this.free.splice(i, 1)[0]!, 0, size);
  }

  give(bytes: Uint8Array): void {
    const { buffer } = bytes;
    if (buffer instanceof SharedArrayBuffer && this.free.length < 16) this.free.push(buffer);
  }
}

/** The parts in one buffer of its own (never Node's pool: the buffer goes to a worker). */
function join(parts: readonly Buffer[], total: number, buffers: ChunkBuffers | undefined): Buffer {
  const out = buffers?.take(total) ?? Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export async function* lineChunks(
  input: AsyncIterable<Uint8Array | string>,
  size: () => number,
  buffers?: ChunkBuffers,
): AsyncGenerator<LineChunk> {
  let parts: Buffer[] = [];
  let total = 0;
  /** Leading parts known to hold no line end (a long line coming in). */
  let searched = 0;
  for await (const piece of input) {
    const bytes =
      typeof piece === 'string'
        ? Buffer.from(piece)
        : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (bytes.length === 0) continue;
    parts.push(bytes);
    total += bytes.length;
    if (total < size()) continue;
    // The last line end, in whichever part it is: a chunk that ran into a long
    // line still ends before it, so the long line starts a chunk of its own.
    let k = parts.length - 1;
    let nl = -1;
    for (; k >= searched && nl < 0; k--) nl = parts[k]!.lastIndexOf(NL);
    k++;
    if (nl < 0) {
      searched = parts.length;
      if (total < MAX_PENDING) continue;
      yield { bytes: join(parts, total, buffers), whole: false };
      parts = [];
      total = 0;
      searched = 0;
      continue;
    }
    const rest = [parts[k]!.subarray(nl + 1), ...parts.slice(k + 1)].filter((p) => p.length > 0);
    const restLength = rest.reduce((n, p) => n + p.length, 0);
    const head = parts.slice(0, k + 1);
    head[k] = parts[k]!.subarray(0, nl + 1);
    yield { bytes: join(head, total - restLength, buffers), whole: true };
    parts = rest;
    total = restLength;
    searched = 0;
  }
  if (total > 0) yield { bytes: join(parts, total, buffers), whole: true, last: true };
}
