/**
 * `news convert FILE -o postgres://…`, a fenced fast path (the session's
 * loadFile): a worker thread (copy-worker.ts) reads the file, parses it
 * and makes each batch's COPY text, while the main thread only runs the
 * transactions. On the plain path one thread does both, and the server
 * waited on it: 14 % of its time, between statements and inside COPYs
 * (bench/README.md, "Databases"). The statements are the plain path's,
 * a batch of at most 1,000 records a transaction, and so are the tables.
 *
 * When the worker meets a line the plain path would write otherwise (a
 * field no table declares, top-level or in a list's item, a line that is
 * not a JSON object, a merge's record without an id), or fails, the load
 * stops there, declined: the plain path then reads the file from its
 * start, and merges again what was committed, to the same rows. So only a
 * merge (or replace) takes it: an append would write those records twice.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FieldDef } from '../database/fields.js';
import type { Layout } from '../database/schema.js';
import type { FileLoad, FileLoadOptions } from '../database/types.js';
import type { BatchRows } from './copy.js';

/** The records a batch holds at most: convert's plain path gathers as many. */
export const FILE_BATCH = 1_000;

/**
 * And the bytes of its lines: a batch ends past them, so a worker's memory
 * (its heap capped below) holds a batch of any records, large or small.
 */
export const FILE_BATCH_BYTES = 16 << 20;

/** What the worker is told (workerData). */
export interface CopyWorkerData {
  readonly file: string;
  readonly main: readonly FieldDef[];
  readonly children: readonly { readonly field: string; readonly columns: readonly FieldDef[] }[];
  readonly merge: boolean;
  readonly batch: number;
  readonly batchBytes: number;
}

/** What the worker is told for a merge of `file` into the layout's tables (their declared columns). */
export function workerData(file: string, layout: Layout): CopyWorkerData {
  return {
    file,
    main: layout.main.declared,
    children: layout.children.map((c) => ({ field: c.list?.field as string, columns: c.declared })),
    merge: layout.merge,
    batch: FILE_BATCH,
    batchBytes: FILE_BATCH_BYTES,
  };
}

/**
 * A batch as COPY text, UTF-8 (its buffers moved to the main thread, not
 * copied: as strings they filled the main thread's heap until a full
 * collection, 494 MB at 100k articles against the plain path's 229 MB):
 * the main table's, each child table's (in the layout's order).
 */
export interface EncodedBatch {
  /** Lines of the file read through this batch. */
  readonly lines: number;
  readonly records: number;
  /** The ids of the rows `main` holds (each once: their last versions). */
  readonly ids: readonly unknown[];
  readonly main: Uint8Array;
  readonly children: readonly Uint8Array[];
}

export type WorkerMessage =
  | ({ readonly type: 'batch' } & EncodedBatch)
  | { readonly type: 'stop'; readonly reason: string }
  | { readonly type: 'end'; readonly records: number; readonly lines: number }
  | { readonly type: 'failed'; readonly error: string };

/** The worker's script: the build's bundle of it, or the compiled module; undefined when neither is there (the sources run under a test runner). */
export function copyWorkerScript(): URL | undefined {
  const bundled = new URL('../../../bundle/pg-copy-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(bundled))) return bundled;
  const compiled = new URL('./copy-worker.js', import.meta.url);
  return existsSync(fileURLToPath(compiled)) ? compiled : undefined;
}

/** The worker failed (out of its memory, or a bug): the plain path then reads the file. */
export class WorkerFailed extends Error {}

/**
 * The worker's messages, in order, each batch once the one before it was
 * taken (the worker stays at most two batches ahead). Ends with `end` or
 * `stop`; a failure of the worker is thrown. The worker ends with the loop.
 */
export async function* encodedBatches(
  script: URL,
  data: CopyWorkerData,
): AsyncGenerator<WorkerMessage> {
  // Its heap capped (a batch is at most FILE_BATCH_BYTES of lines): left
  // to grow, V8 collects a worker's heap seldom; past the cap it fails, and
  // the plain path reads the file.
  const worker = new Worker(script, {
    workerData: data,
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 },
  });
  const queue: WorkerMessage[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  worker.on('message', (message: WorkerMessage) => {
    queue.push(message);
    wake?.();
  });
  worker.on('error', (error) => {
    failure = new WorkerFailed(error.message);
    wake?.();
  });
  worker.on('exit', (code) => {
    failure ??= new WorkerFailed(`it stopped with exit code ${code}`);
    wake?.();
  });
  try {
    for (;;) {
      const message = queue.shift();
      if (message === undefined) {
        if (failure !== undefined) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (message.type === 'failed') throw new WorkerFailed(message.error);
      if (message.type === 'batch') worker.postMessage('next');
      yield message;
      if (message.type !== 'batch') return;
    }
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}

/** COPY text in pieces of 64 KiB, as pipeline.ts sends it. */
export function* pieces(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 1 << 16) yield bytes.subarray(at, at + (1 << 16));
}

/**
 * A merge of the file by the worker: each batch it makes written by
 * `commit` (the session's transaction), until the end or the line where it
 * stops (declined, and the plain path reads the file again).
 */
export async function loadByWorker(
  path: string,
  layout: Layout,
  options: FileLoadOptions,
  commit: (rows: BatchRows) => Promise<void>,
): Promise<FileLoad> {
  if (!layout.merge) return { declined: 'an append reads the file the plain way' };
  if (options.threads === false) return { declined: '--jobs 1 starts no worker thread' };
  const script = copyWorkerScript();
  if (script === undefined) return { declined: 'the worker script is not built' };
  try {
    for await (const message of encodedBatches(script, workerData(path, layout))) {
      if (message.type === 'stop') return { declined: message.reason };
      if (message.type === 'end') return { records: message.records };
      if (message.type !== 'batch') continue;
      options.signal?.throwIfAborted();
      const empty = new Uint8Array(0);
      const children = new Map(layout.children.map((c, i) => [c, message.children[i] ?? empty]));
      await commit({
        ids: message.ids,
        main: () => pieces(message.main),
        child: (child) => pieces(children.get(child) ?? empty),
      });
      options.committed?.(message.lines);
    }
  } catch (error) {
    if (error instanceof WorkerFailed) return { declined: `its worker failed: ${error.message}` };
    throw error;
  }
  throw new Error("the file's worker ended without a word");
}
