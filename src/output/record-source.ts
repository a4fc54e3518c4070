/**
 * The pages of `news convert`: saved records read back from a stream.
 *
 * The input is cut into chunks that end at line ends (line-chunks.ts) and
 * read on the main thread until the writer says how it encodes
 * (`encodeWith`). From then on, while the input is one record per line (JSON
 * Lines, or our own `-f json`), chunks go to worker threads that parse and
 * encode them (about twice the speed on two cores), and the encoded pages are
 * handed on in input order. A chunk a worker cannot read as lines (a
 * pretty-printed record, bad JSON) sends this chunk and everything after it
 * back to the main thread's reader, which accepts every shape and reports
 * errors with their line numbers, exactly as if no worker had been involved.
 */
import type { EncoderSpec, Page, PageSource } from './format-writer.js';
import { bad } from './json-scanner.js';
import { LineReader } from './line-reader.js';
import type { LineMode } from './line-reader.js';
import { ChunkBuffers, lineChunks } from './parallel/line-chunks.js';
import type { LineChunk } from './parallel/line-chunks.js';
import type { WorkerPool } from './parallel/pool.js';
import type { ChunkResult } from './parallel/protocol.js';
import { OFF_THREAD_FORMATS } from './page-encoders.js';
import type { ApiRecord, FormatName } from './types.js';

export const PAGE_SIZE = 100;
/** Text formats: about 80 articles a chunk. */
const TEXT_CHUNK = 1024 * 1024;
/**
 * Parquet: a chunk is one row group, about 160 articles. Larger groups cost
 * more memory on each worker (3 MB: 280 MB peak at 10k articles against 250).
 */
const PARQUET_CHUNK = 2 * 1024 * 1024;
/** Chunks out at once, per worker: one being encoded, one waiting. */
const AHEAD = 2;

export interface RecordSourceOptions {
  /** Worker threads once the writer's spec is known; 1 or less: none. */
  jobs: number;
  /**
   * The format the writer is expected to use: workers are not started for
   * one that encodes on the main thread only (xlsx, table), and load its
   * encoder while they wait for the writer.
   */
  format?: FormatName | undefined;
  /** Says when the workers start and when they hand back (shown with --verbose). */
  debug?: (message: string) => void;
}

/** Where the workers stopped: the main thread reads on from here. */
interface Handback {
  mode: LineMode;
  line: number;
  /** Why, for the debug line. */
  why: string;
  /** Chunks sent out but not written, in order. */
  chunks: Buffer[];
}

export class RecordSource implements PageSource {
  private spec: EncoderSpec | undefined;
  private specKnown = false;
  private readonly buffers = new ChunkBuffers();

  constructor(
    private readonly input: AsyncIterable<Uint8Array | string>,
    private readonly options: RecordSourceOptions,
  ) {}

  encodeWith(spec: EncoderSpec | undefined): void {
    this.spec = spec;
    this.specKnown = true;
  }

  private chunkSize(): number {
    return this.spec?.format === 'parquet' ? PARQUET_CHUNK : TEXT_CHUNK;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Page> {
    const chunks = lineChunks(this.input, () => this.chunkSize(), this.buffers);
    let reader = new LineReader();
    let decoder = new TextDecoder('utf-8');
    let parallelTried = false;
    // Started with the first chunk when more follow, so that the workers boot
    // while this thread reads that chunk and the writer is made (~60 ms on
    // this machine); closed unused when the writer encodes on this thread
    // only, or the input is not one record per line.
    let pool: WorkerPool | undefined;
    try {
      for (;;) {
        const next = await chunks.next();
        if (next.done) break;
        if (
          !parallelTried &&
          pool === undefined &&
          this.options.jobs > 1 &&
          next.value.last !== true &&
          (this.options.format === undefined || OFF_THREAD_FORMATS.has(this.options.format))
        ) {
          const { WorkerPool } = await import('./parallel/pool.js');
          pool = new WorkerPool(this.options.jobs, this.options.format);
        }
        reader.feedBytes(next.value.bytes, decoder);
        this.buffers.give(next.value.bytes);
        while (reader.out.length >= PAGE_SIZE) yield reader.out.splice(0, PAGE_SIZE);
        if (parallelTried) continue;
        const spec = this.spec;
        if (this.specKnown && (spec === undefined || this.options.jobs <= 1 || reader.scanning)) {
          // This input or this format is read and written here: no workers.
          parallelTried = true;
          await pool?.close();
          pool = undefined;
          continue;
        }
        if (spec === undefined || pool === undefined || !next.value.whole || !reader.lineShaped) {
          continue;
        }
        if (reader.mode !== 'lines' && reader.mode !== 'array') continue;
        parallelTried = true;
        if (reader.out.length > 0) yield reader.out.splice(0);
        const handback = yield* this.parallel(pool, spec, chunks, reader.mode, reader.line);
        await pool.close();
        pool = undefined;
        if (handback === undefined) return;
        this.options.debug?.(
          `convert: ${handback.why}; the main thread reads on from line ${handback.line}`,
        );
        // The same state a main-thread reader would have had at this chunk.
        reader = new LineReader({ mode: handback.mode, line: handback.line });
        decoder = new TextDecoder('utf-8');
        for (const chunk of handback.chunks) {
          reader.feedBytes(chunk, decoder);
          while (reader.out.length >= PAGE_SIZE) yield reader.out.splice(0, PAGE_SIZE);
        }
      }
      reader.feed(decoder.decode());
      reader.end();
      while (reader.out.length > 0) yield reader.out.splice(0, PAGE_SIZE);
    } finally {
      await pool?.close();
      await chunks.return(undefined);
    }
  }

  /**
   * Reads the rest of the input on workers; undefined when it got to the end,
   * or where the main thread must take over.
   */
  private async *parallel(
    pool: WorkerPool,
    spec: EncoderSpec,
    chunks: AsyncGenerator<LineChunk>,
    mode: LineMode,
    line: number,
  ): AsyncGenerator<Page, Handback | undefined> {
    pool.setup(spec);
    this.options.debug?.(`convert: ${this.options.jobs} worker threads read on from line ${line}`);
    // Each chunk is transferred to its worker and comes back with the result.
    const queue: Promise<ChunkResult>[] = [];
    let expected = mode;
    let lineNumber = line;
    let inputDone = false;
    // A chunk that is not whole stops the workers there: the main thread reads on.
    let partial: Buffer | undefined;
    for (;;) {
      while (!inputDone && partial === undefined && queue.length < AHEAD * this.options.jobs) {
        const next = await chunks.next();
        if (next.done) inputDone = true;
        else if (!next.value.whole) partial = next.value.bytes;
        else {
          const result = pool.run(next.value.bytes, expected);
          result.catch(() => undefined); // awaited in turn; a failure must not go unhandled
          queue.push(result);
        }
      }
      const head = queue[0];
      if (head === undefined) {
        if (partial !== undefined) {
          const why = `line ${lineNumber} is longer than a chunk may grow (16 MB)`;
          return { mode: expected, line: lineNumber, why, chunks: [partial] };
        }
        break;
      }
      const result = await head;
      if (result.status === 'failed') throw new Error(`convert worker: ${result.error}`);
      if (result.status === 'not-lines' || result.startMode !== expected) {
        const back: Buffer[] = [];
        for (const r of queue) {
          const { input } = await r;
          back.push(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
        }
        if (partial !== undefined) back.push(partial);
        const why =
          result.status === 'not-lines'
            ? `line ${lineNumber + result.lines} is not one record per line`
            : `the input changes shape at line ${lineNumber}`;
        return { mode: expected, line: lineNumber, why, chunks: back };
      }
      queue.shift();
      this.buffers.give(result.input);
      expected = result.endMode;
      lineNumber += result.lines;
      yield result.page;
    }
    if (expected === 'array') throw bad('the input ends in the middle of a JSON value');
    return undefined;
  }
}

/** Pages of records read back on the main thread only (tests, and any stream). */
export function readRecords(input: AsyncIterable<Uint8Array | string>): AsyncIterable<ApiRecord[]> {
  const source = new RecordSource(input, { jobs: 1 });
  return (async function* () {
    for await (const page of source) yield page as ApiRecord[];
  })();
}
