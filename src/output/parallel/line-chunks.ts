/**
 * Cuts a byte stream into chunks of about `size()` bytes that end at a line
 * end, so each can be parsed on its own (by a worker thread). A chunk ends
 * without a line end only at the end of the input, or when no line end came
 * for MAX_PENDING bytes (a file that is one long line): that chunk is not
 * `whole`, and only a reader that carries the partial line over (the main
 * thread's) can take it.
 */
const NL = 0x0a;
const MAX_PENDING = 16 * 1024 * 1024;

export interface LineChunk {
  readonly bytes: Buffer;
  /** Ends at a line end, or at the end of the input. */
  readonly whole: boolean;
}

/**
 * Buffers for chunks, used again once a worker gives them back: 1.3 GB of
 * input through fresh buffers kept ~60 MB of garbage ArrayBuffers waiting
 * for the main thread's GC.
 */
export class ChunkBuffers {
  private readonly free: ArrayBuffer[] = [];

  take(size: number): Buffer {
    const i = this.free.findIndex((b) => b.byteLength >= size);
    if (i < 0) return Buffer.from(new ArrayBuffer(Math.ceil(size * 1.25)), 0, size);
    return Buffer.from(this.free.splice(i, 1)[0]!, 0, size);
  }

  give(bytes: Uint8Array): void {
    if (this.free.length < 16) this.free.push(bytes.buffer as ArrayBuffer);
  }
}

/** The parts in one buffer of its own (never Node's shared pool: chunks are transferred). */
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
  for await (const piece of input) {
    const bytes =
      typeof piece === 'string'
        ? Buffer.from(piece)
        : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (bytes.length === 0) continue;
    parts.push(bytes);
    total += bytes.length;
    if (total < size()) continue;
    const nl = bytes.lastIndexOf(NL);
    if (nl < 0) {
      if (total < MAX_PENDING) continue;
      yield { bytes: join(parts, total, buffers), whole: false };
      parts = [];
      total = 0;
      continue;
    }
    const rest = bytes.subarray(nl + 1);
    parts[parts.length - 1] = bytes.subarray(0, nl + 1);
    yield { bytes: join(parts, total - rest.length, buffers), whole: true };
    parts = rest.length > 0 ? [rest] : [];
    total = rest.length;
  }
  if (total > 0) yield { bytes: join(parts, total, buffers), whole: true };
}
