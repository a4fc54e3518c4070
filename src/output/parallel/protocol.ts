/** The messages between convert's main thread (pool.ts) and its workers (worker.ts). */
import type { EncodedPage, EncoderSpec } from '../format-writer.js';
import type { LineMode } from '../line-reader.js';
import type { FormatName } from '../types.js';

/** workerData: the format the writer is expected to use, loaded while the worker waits. */
export interface WorkerHint {
  readonly format: FormatName | undefined;
}

/**
 * How to encode, sent once the writer exists: the workers are started
 * before that (they boot while the main thread reads the first chunk), so
 * the spec comes as the first message, not as workerData.
 */
export interface WorkerSetup {
  readonly spec: EncoderSpec;
  /** The text formats' byte writers are worth their compiling (page-encoders.ts, `loadChunkEncoder`). */
  readonly byteLines: boolean;
}

/**
 * Parse these lines, read in `mode`, and encode their records. `bytes` (in
 * shared memory, parallel/shared.ts) comes back with the result: the main
 * thread may need it again, and uses it again for a later chunk.
 */
export interface ChunkTask {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly mode: LineMode;
  /** A page buffer already written, for the result's bytes when it is big enough. */
  readonly spare?: ArrayBufferLike | undefined;
}

export type ChunkResult = { readonly input: Uint8Array } & (
  | {
      readonly id: number;
      readonly status: 'encoded';
      readonly page: EncodedPage;
      /** Line ends in the chunk. */
      readonly lines: number;
      readonly startMode: LineMode;
      readonly endMode: LineMode;
    }
  /** A line is not one record (or not JSON): the main thread reads the chunk itself. */
  | {
      readonly id: number;
      readonly status: 'not-lines';
      /** Line ends in the chunk before that line. */
      readonly lines: number;
    }
  /** The encoder failed: a bug, reported as such. */
  | { readonly id: number; readonly status: 'failed'; readonly error: string }
);
