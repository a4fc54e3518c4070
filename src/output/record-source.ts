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
import { OFF_THREAD_FORMATS } from './parallel/page-encoders.js';
import { NO_FAST_PATHS_VARIABLE, fastPathsOn } from './fast-paths.js';
import type { ApiRecord, FormatName } from './types.js';

export const PAGE_SIZE = 100;
/** Text formats: about 80 articles a chunk. */
export const TEXT_CHUNK = 1024 * 1024;
/**
 * Parquet: a chunk is one row group, about 160 articles. Larger groups cost
 * more memory on each worker (3 MB: 280 MB peak at 10k articles against 250).
 */
export const PARQUET_CHUNK = 2 * 1024 * 1024;
/** Chunks out at once, per worker: one being encoded, one waiting. */
export const AHEAD = 2;
/** The workers read the first page's chunks again only when they are this few. */
const MAX_SAMPLED = 4;
/**
 * A bigger chunk (a line of several MB) is read on the main thread: the
 * workers' heap is capped (parallel/pool.ts), and the text of such a line is
 * held two or three times over while it is parsed and encoded.
 */
export const WORKER_MAX_CHUNK = 4 * 1024 * 1024;

/** Reads chunks of about `size()` bytes that end at line ends, into buffers from `buffers`. */
export type ChunkReader = (size: () => number, buffers: ChunkBuffers) => AsyncGenerator<LineChunk>;

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
  /** The input's size in bytes, when known (a file that is not gzipped). */
  size?: number | undefined;
}

/**
 * Below this much input (when its size is known), workers read the text
 * formats' lines through JSON.parse: compiling the byte writers costs more
 * than they save (12.5 MB of API-shaped articles to CSV: 0.51 CPU seconds
 * that way, 0.60 from the bytes; 25 MB: 0.81 against 0.73).
 */
export const BYTE_LINES_FROM = 16 * 1024 * 1024;

/** Whole lines, of a size a worker takes. */
function forWorkers(chunk: LineChunk): boolean {
  return chunk.whole && chunk.bytes.length <= WORKER_MAX_CHUNK;
}

/** A chunk read for the first page, and the mode it starts in. */
interface Sampled {
  readonly bytes: Buffer;
  readonly mode: LineMode;
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
  /**
   * The chunks this thread read for the first page (the writer's sample),
   * while the workers may still read them again from the first byte;
   * undefined once they may not (the input is not lines, or is small).
   */
  private sampled: Sampled[] | undefined = [];
  /** The workers read the input from its first byte; this thread's records are dropped. */
  private retake = false;
  /** Written pages' buffers, handed back to the workers for the next pages' bytes. */
  private readonly spares: ArrayBufferLike[] = [];
  private reusePages = false;

  /** `input`: a stream of bytes, or a reader of chunks (a regular file: file-chunks.ts). */
  private readonly options: RecordSourceOptions;

  /** With the fast paths off (fast-paths.ts), no workers: every line is read on this thread. */
  constructor(
    private readonly input: AsyncIterable<Uint8Array | string> | ChunkReader,
    options: RecordSourceOptions,
  ) {
    this.options = fastPathsOn() ? options : { ...options, jobs: 1 };
    if (options.jobs > 1 && this.options.jobs === 1)
      options.debug?.(
        `convert: fast paths off (${NO_FAST_PATHS_VARIABLE}): no worker threads, every line through JSON.parse`,
      );
  }

  /**
   * True when the workers will read the input again from its first byte: the
   * caller then drops the records it has (they come again, encoded), and
   * this thread encodes nothing. Its one encode, all cold code, cost more
   * than the same records on a worker (~100 ms for Parquet's first group).
   */
  encodeWith(spec: EncoderSpec | undefined, reusable = false): boolean {
    this.spec = spec;
    this.specKnown = true;
    this.reusePages = reusable;
    this.retake = spec !== undefined && this.sampled !== undefined && this.sampled.length > 0;
    if (!this.retake) this.dropSample();
    return this.retake;
  }

  private dropSample(): void {
    for (const { bytes } of this.sampled ?? []) this.buffers.give(bytes);
    this.sampled = undefined;
  }

  private chunkSize(): number {
    return this.spec?.format === 'parquet' ? PARQUET_CHUNK : TEXT_CHUNK;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Page> {
    const size = (): number => this.chunkSize();
    const chunks =
      typeof this.input === 'function'
        ? this.input(size, this.buffers)
        : lineChunks(this.input, size, this.buffers);
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
        const startMode = reader.mode;
        reader.feedBytes(next.value.bytes, decoder);
        if (this.sampled !== undefined && !this.specKnown) {
          this.sampled.push({ bytes: next.value.bytes, mode: startMode });
          const lines = reader.lineShaped && (reader.mode === 'lines' || reader.mode === 'array');
          if (
            pool === undefined ||
            !forWorkers(next.value) ||
            !lines ||
            this.sampled.length > MAX_SAMPLED
          ) {
            this.dropSample();
          }
        } else {
          this.buffers.give(next.value.bytes);
        }
        while (reader.out.length >= PAGE_SIZE && !this.retake) {
          yield reader.out.splice(0, PAGE_SIZE);
        }
        if (parallelTried) continue;
        const spec = this.spec;
        if (this.retake && pool !== undefined && spec !== undefined) {
          parallelTried = true;
          const again = this.sampled ?? [];
          this.sampled = undefined;
          const handback = yield* this.parallel(pool, spec, chunks, reader.mode, 1, again);
          await pool.close();
          pool = undefined;
          if (handback === undefined) return;
          [reader, decoder] = yield* this.readBack(handback);
          continue;
        }
        if (this.specKnown && (spec === undefined || this.options.jobs <= 1 || reader.scanning)) {
          // This input or this format is read and written here: no workers.
          parallelTried = true;
          await pool?.close();
          pool = undefined;
          continue;
        }
        if (
          spec === undefined ||
          pool === undefined ||
          !forWorkers(next.value) ||
          !reader.lineShaped
        ) {
          continue;
        }
        if (reader.mode !== 'lines' && reader.mode !== 'array') continue;
        parallelTried = true;
        if (reader.out.length > 0) yield reader.out.splice(0);
        const handback = yield* this.parallel(pool, spec, chunks, reader.mode, reader.line, []);
        await pool.close();
        pool = undefined;
        if (handback === undefined) return;
        [reader, decoder] = yield* this.readBack(handback);
      }
      reader.feed(decoder.decode());
      reader.end();
      while (reader.out.length > 0) yield reader.out.splice(0, PAGE_SIZE);
    } finally {
      await pool?.close();
      await chunks.return(undefined);
    }
  }

  /** Reads the chunks the workers handed back, in the state a main-thread reader would have had. */
  private async *readBack(
    handback: Handback,
  ): AsyncGenerator<Page, [LineReader, InstanceType<typeof TextDecoder>]> {
    this.options.debug?.(
      `convert: ${handback.why}; the main thread reads on from line ${handback.line}`,
    );
    const reader = new LineReader({ mode: handback.mode, line: handback.line });
    const decoder = new TextDecoder('utf-8');
    for (const chunk of handback.chunks) {
      reader.feedBytes(chunk, decoder);
      while (reader.out.length >= PAGE_SIZE) yield reader.out.splice(0, PAGE_SIZE);
    }
    return [reader, decoder];
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
    /** Chunks to read before those still to come from `chunks` (which start in `mode`), each with the mode it starts in. */
    first: Sampled[],
  ): AsyncGenerator<Page, Handback | undefined> {
    const size = this.options.size;
    const byteLines = size === undefined || size >= BYTE_LINES_FROM;
    pool.setup(spec, byteLines);
    if (!byteLines) {
      this.options.debug?.(
        'convert: under 16 MB of input, csv, tsv and JSON are read through JSON.parse',
      );
    }
    this.options.debug?.(`convert: ${this.options.jobs} worker threads read on from line ${line}`);
    // Each chunk goes to its worker and comes back with the result.
    const queue: Promise<ChunkResult>[] = [];
    let expected = first[0]?.mode ?? mode;
    let lineNumber = line;
    let inputDone = false;
    // A chunk that is not whole stops the workers there: the main thread reads on.
    let partial: LineChunk | undefined;
    for (;;) {
      while (!inputDone && partial === undefined && queue.length < AHEAD * this.options.jobs) {
        const again = first.shift();
        if (again !== undefined) {
          const result = pool.run(again.bytes, again.mode, this.spares.pop());
          result.catch(() => undefined);
          queue.push(result);
          continue;
        }
        const next = await chunks.next();
        if (next.done) inputDone = true;
        else if (!forWorkers(next.value)) partial = next.value;
        else {
          const result = pool.run(next.value.bytes, mode, this.spares.pop());
          result.catch(() => undefined); // awaited in turn; a failure must not go unhandled
          queue.push(result);
        }
      }
      const head = queue[0];
      if (head === undefined) {
        if (partial !== undefined) {
          const why = partial.whole
            ? `line ${lineNumber} is longer than a worker takes (4 MB)`
            : `line ${lineNumber} is longer than a chunk may grow (16 MB)`;
          return { mode: expected, line: lineNumber, why, chunks: [partial.bytes] };
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
        back.push(...first.map((f) => f.bytes));
        if (partial !== undefined) back.push(partial.bytes);
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
      // Asked for the next page: this one is written (and copied by the sink).
      if (this.reusePages && this.spares.length < AHEAD * this.options.jobs) {
        this.spares.push(result.page.bytes.buffer);
      }
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
