/**
 * A convert worker: parses the chunks of JSON Lines it is sent, encodes their
 * records with the writer's own encoder, and sends the bytes back (in shared
 * memory, not copied: parallel/shared.ts). A chunk is decoded and parsed a slice at a time
 * and its records handed to the encoder as they come, so a worker holds one
 * slice of parsed records, not a chunk's; an encoder that takes lines
 * straight from their bytes (Parquet) gets them so (byte-lines.ts).
 */
import { isUtf8 } from 'node:buffer';
import { parentPort, workerData } from 'node:worker_threads';
import { loadChunkEncoder, preloadEncoder } from './page-encoders.js';
import type { ChunkEncoder } from './page-encoders.js';
import { readByteLines, readTextLines } from './byte-lines.js';
import type { LineTarget } from './byte-lines.js';
import type { ChunkResult, ChunkTask, WorkerHint, WorkerSetup } from './protocol.js';
import { transferList } from './shared.js';

const port = parentPort!;
const { format } = workerData as WorkerHint;
// Loaded while the main thread makes the writer; a failure shows at setup.
const preloaded = format === undefined ? Promise.resolve() : preloadEncoder(format).catch(() => {});

type Outcome = ChunkResult extends infer R ? (R extends unknown ? Omit<R, 'input'> : never) : never;

/** The worker's own copy of the chunk it reads (see `ownCopy`). */
let own = new Uint8Array(0);

/**
 * The chunk copied out of shared memory (~0.07 ms a MB): Buffer's indexOf
 * (memchr), which the byte readers call for every long string, takes a
 * slower path on shared memory (~25 ns a call against ~8), and the copy
 * costs less than that.
 */
function ownCopy(bytes: Uint8Array): Uint8Array {
  if (own.length < bytes.length) own = new Uint8Array(Math.ceil(bytes.length * 1.25));
  own.set(bytes);
  return own.subarray(0, bytes.length);
}

function encodeChunk(encoder: ChunkEncoder, task: ChunkTask): Outcome {
  const bytes = ownCopy(task.bytes);
  // An encoder that reads lines from their bytes gets them so, when they are UTF-8.
  const read =
    encoder.addLine !== undefined && isUtf8(bytes)
      ? readByteLines(bytes, task.mode, encoder as LineTarget)
      : readTextLines(bytes, 0, bytes.length, task.mode, 0, (r) => encoder.add(r));
  const page = encoder.finish(task.spare);
  if (read.failed) return { id: task.id, status: 'not-lines', lines: read.lines };
  return {
    id: task.id,
    status: 'encoded',
    page,
    lines: read.lines,
    startMode: task.mode,
    endMode: read.mode,
  };
}

// The first message is the setup; tasks that come while the encoder loads
// wait for it, in order.
let encoder: Promise<ChunkEncoder> | undefined;

port.on('message', async (message: WorkerSetup | ChunkTask) => {
  if (encoder === undefined) {
    const { spec, byteLines } = message as WorkerSetup;
    encoder = preloaded.then(() => loadChunkEncoder(spec, byteLines));
    encoder.catch(() => undefined); // reported with the first task
    return;
  }
  const task = message as ChunkTask;
  let outcome: Outcome;
  try {
    outcome = encodeChunk(await encoder, task);
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    outcome = { id: task.id, status: 'failed', error: text };
  }
  const result = { ...outcome, input: task.bytes } as ChunkResult;
  const page = result.status === 'encoded' ? result.page.bytes.buffer : undefined;
  port.postMessage(result, transferList(task.bytes.buffer, page));
});
