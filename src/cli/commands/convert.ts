import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { UsageError } from '../../api/errors.js';
import { fileError } from '../../output/file-errors.js';
import type { PageSource } from '../../output/format-writer.js';
import type { fileChunks } from '../../output/parallel/file-chunks.js';
import type { LineChunk } from '../../output/parallel/line-chunks.js';
import type { ChunkReader } from '../../output/record-source.js';
import { fastPathsOn } from '../../output/fast-paths.js';
import type { ApiRecord, RecordKind } from '../../output/types.js';
import type { CommandSpec } from '../command-spec.js';
import type { Runtime } from '../runtime/runtime.js';
import { OUTPUT } from '../settings/global-options.js';
import { chooseFormat, exportPages } from '../export/export-pages.js';

/**
 * Records per transaction into a database (export/database-export.ts) from
 * a saved file, read 100 at a time: a thousand articles are ~6 MB of JSON,
 * ~25 MB as objects, and two batches are in memory at once (one written,
 * the next read). Larger batches bought no speed once the next is read
 * during the write, and cost memory: 10,000 peaked near 310 MB, 1,000 near
 * 220 MB.
 */
const CONVERT_BATCH = 1_000;

const KINDS: readonly RecordKind[] = ['article', 'person', 'company', 'journalist', 'generic'];
const MAX_JOBS = 16;

/** Articles have a title and a publication date; anything else gets generic columns. */
function guessKind(first: ApiRecord | undefined): RecordKind {
  return first && 'title' in first && 'published_at' in first ? 'article' : 'generic';
}

/** One worker per core, at most 4: beyond that the main thread's writing is the limit. */
function defaultJobs(): number {
  return Math.min(availableParallelism(), 4);
}

function parseJobs(value: unknown): number {
  if (value === undefined) return defaultJobs();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_JOBS) {
    throw new UsageError(
      `--jobs must be a whole number from 1 to ${MAX_JOBS} (got "${String(value)}")`,
    );
  }
  return n;
}

type Input = ChunkReader | AsyncIterable<Uint8Array | string>;

/**
 * A named file: read straight into the chunk buffers (file-chunks.ts), with
 * its size, or as a stream through gunzip when it starts with gzip's magic
 * bytes (its size then unknown).
 */
async function fileInput(
  file: string,
  chunksOf: typeof fileChunks,
  gunzip: (input: AsyncIterable<Uint8Array | string>) => AsyncIterable<Uint8Array | string>,
): Promise<{ input: Input; size?: number }> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw fileError('read', file, error);
  }
  let size: number;
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new UsageError(`cannot read ${file}: it is a directory`);
    size = stat.size;
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    if (head[0] === 0x1f && head[1] === 0x8b) return { input: gunzip(handle.createReadStream()) };
  } catch (error) {
    await handle.close();
    throw error;
  }
  return { input: (chunk, buffers) => closing(chunksOf(handle, chunk, buffers), handle), size };
}

/** The chunks, then the file closed (also when the reader stops early). */
async function* closing(
  chunks: AsyncGenerator<LineChunk>,
  handle: FileHandle,
): AsyncGenerator<LineChunk> {
  try {
    yield* chunks;
  } finally {
    await handle.close();
  }
}

/**
 * The first line of a plain (not gzipped) file, from its first MB; undefined
 * when there is none to read (the plain path then reports what is wrong).
 */
async function firstLine(file: string): Promise<string | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const buffer = Buffer.alloc(1 << 20);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (buffer[0] === 0x1f && buffer[1] === 0x8b) return undefined;
    const end = buffer.subarray(0, bytesRead).indexOf(0x0a);
    return end === -1 ? undefined : buffer.subarray(0, end).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/**
 * A fast path: a named JSON Lines file loaded whole into a database (DuckDB
 * reads it itself; PostgreSQL's is parsed on a worker thread), of the kind
 * asked or guessed from the first line. True when it is in; false when this
 * does not apply or the session declined (`-v` says why), and the file is
 * read the plain way.
 */
async function loadedWhole(
  runtime: Runtime,
  file: string,
  kindOption: RecordKind | undefined,
  jobs: number,
): Promise<boolean> {
  if (!fastPathsOn()) return false;
  const { resolveDestination } = await import('../../output/destinations/registry.js');
  const destination = resolveDestination(runtime.settings.output);
  // Every engine's session has a loadFile (one that had none would read the file the plain way).
  if (destination.kind !== 'database') return false;
  const line = await firstLine(file);
  if (line === undefined) return false;
  let first: unknown;
  try {
    first = JSON.parse(line);
  } catch {
    return false;
  }
  // JSON Lines of objects only (not an array or an envelope on one line).
  if (typeof first !== 'object' || first === null || Array.isArray(first)) return false;
  const kind = kindOption ?? guessKind(first as ApiRecord);
  // A generic table declares no column: every field would be one to add, which the plain path does.
  if (kind === 'generic') return false;
  const { loadFileIntoDatabase } = await import('../export/database-export.js');
  return loadFileIntoDatabase(runtime, file, kind, destination, jobs > 1);
}

export const convert: CommandSpec = {
  name: 'convert',
  group: 'tools',
  summary: 'turn saved JSON or JSONL records into any format, offline',
  description:
    'Reads a JSON array, a saved response envelope ({"results": [...]}) or JSONL/NDJSON, gzipped or not, from FILE (or - / nothing for stdin) and writes it with -f/-o, exactly as a live export would. One record per line (JSONL, or -f json output) is parsed and encoded on worker threads, in parallel; the output is the same bytes either way. Into -o duckdb:, DuckDB reads a named JSONL file itself; into -o postgres://, a worker thread parses and encodes it (-v says so, or why not).',
  args: [{ name: 'file', description: 'input file, or - for stdin', required: false }],
  // Offline: the output options only.
  globals: OUTPUT,
  options: [
    {
      flags: '--kind <kind>',
      choices: KINDS,
      description: `record kind for default columns: ${KINDS.join('|')} (default: guessed)`,
    },
    {
      flags: '--jobs <n>',
      description:
        'worker threads for parsing and encoding; 1 = none (default: one per core, at most 4)',
    },
  ],
  examples: [
    'news convert saved.jsonl -o saved.parquet',
    'news convert saved.jsonl.gz -o saved.xlsx',
    'news search --title rates --all -f jsonl | news convert -f csv > rates.csv',
  ],
  async run(input, runtime) {
    const file = input.args[0];
    const kindOption = input.options['kind'];
    if (kindOption !== undefined && !KINDS.includes(kindOption as RecordKind)) {
      throw new UsageError(
        `--kind must be one of ${KINDS.join(', ')} (got "${String(kindOption)}")`,
      );
    }
    const jobs = parseJobs(input.options['jobs']);
    // Nothing named and nothing piped: waiting on the terminal would look like a hang.
    if (file === undefined && runtime.io.stdin.isTTY === true) {
      throw new UsageError('no input: name a FILE, or pipe records in', {
        hint: 'news convert saved.jsonl -o saved.csv, or: news search … -f jsonl | news convert -f csv (- reads the terminal)',
      });
    }
    // Before the file is opened: a name that tells no format ends here.
    const format = await chooseFormat(runtime);
    if (
      file !== undefined &&
      file !== '-' &&
      (await loadedWhole(runtime, file, kindOption as RecordKind | undefined, jobs))
    ) {
      return;
    }
    const { RecordSource, fileChunks, gunzipIfCompressed } = await import('../../output/index.js');
    const { input: records, size } =
      file === undefined || file === '-'
        ? { input: gunzipIfCompressed(runtime.io.stdin as AsyncIterable<Uint8Array | string>) }
        : await fileInput(file, fileChunks, gunzipIfCompressed);
    const source = new RecordSource(records, {
      jobs,
      format,
      size,
      debug: (m) => runtime.report.debug(m),
    });
    const iterator = source[Symbol.asyncIterator]();
    // The first page is read here, on the main thread, to guess the kind.
    const first = await iterator.next();
    const firstPage = first.done ? undefined : (first.value as readonly ApiRecord[]);
    const kind = (kindOption as RecordKind | undefined) ?? guessKind(firstPage?.[0]);
    const pages: PageSource = {
      encodeWith: (spec, reusable) => source.encodeWith(spec, reusable),
      async *[Symbol.asyncIterator]() {
        if (firstPage !== undefined) yield firstPage;
        yield* { [Symbol.asyncIterator]: () => iterator };
      },
    };
    try {
      await exportPages(
        runtime,
        pages,
        kind,
        `news convert ${file ?? '-'}`,
        runtime.settings.output,
        {
          gather: CONVERT_BATCH,
        },
      );
    } finally {
      // A destination that fails before it reads a page (a database that cannot be
      // reached) leaves the reader open: its file and workers would keep the process alive.
      await iterator.return?.(undefined);
    }
  },
};
