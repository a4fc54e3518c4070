/**
 * Records that arrive over time (`news stream`), written as they come. The
 * line formats (jsonl, ndjson, csv, tsv) and `table` are live: every page is
 * flushed to stdout or straight into the `-o` file, and an interrupted run
 * keeps what was written. Any other format (or a `.gz` file) is written to a
 * temporary file and renamed at the end, like every other export; to stdout
 * it is written as it comes and closed (the JSON array's bracket) at the end.
 */
import { UsageError } from '../api/errors.js';
import { createWriter, resolveColumns } from './export.js';
import type { FormatWriter, WriterContext } from './format-writer.js';
import { isBinaryFormat, isGzipPath } from './formats.js';
import { type ExistingFile, LiveFileSink } from './live-file-sink.js';
import type { Writable } from 'node:stream';
import { openFileSink } from './open-sink.js';
import { resolveDestination, storeOf } from './destinations/registry.js';
import type { Sink } from './sink.js';
import { StdoutSink } from './stdout-sink.js';
import type { ApiRecord, FormatName } from './types.js';
import type { ExportOptions } from './export.js';

export const LIVE_FORMATS: readonly FormatName[] = ['jsonl', 'ndjson', 'csv', 'tsv', 'table'];

/** Whether records in this format reach this destination as they arrive. */
export function isLiveOutput(format: FormatName, output: string | undefined): boolean {
  if (!LIVE_FORMATS.includes(format)) return false;
  const destination = resolveDestination(output);
  // stdout and a table take records as they come; an object in a store is uploaded whole, never appended to.
  if (destination.kind !== 'store') return true;
  return destination.store.appendable && !isGzipPath(destination.path);
}

/** The options of an export, without what only a paged export has (the abort signal, the RSS link). */
export type LiveExportOptions = Omit<ExportOptions, 'signal' | 'link'> & {
  /**
   * Continue an existing `-o` file instead of replacing it (`stream --state`):
   * records are appended; a csv/tsv header is written only to an empty file,
   * and one that differs from this run's is refused. Live formats only.
   */
  readonly append?: boolean;
};

export interface LiveExport {
  /** Writes a page; a live destination has it before this resolves. */
  write(records: readonly ApiRecord[]): Promise<void>;
  /**
   * jsonl/ndjson without --fields: lines already encoded (the JSON text as
   * received), written as they are. False when the format needs records.
   */
  readonly takesLines: boolean;
  writeLines(text: string, records: number): Promise<void>;
  /** The reader went away (EPIPE on stdout): stop, quietly. */
  readonly broken: boolean;
  readonly records: number;
  readonly live: boolean;
  /** Writes the trailer and commits (a temporary file is renamed into place). */
  finish(): Promise<{ path: string | undefined }>;
  /** Stops after a failure: live output keeps what was written, a temporary file is removed. */
  abort(): Promise<void>;
}

/**
 * Everything `openLiveExport` would refuse, refused now, creating and
 * truncating nothing: `news stream` checks before it connects and opens
 * its output only once the server accepted the connection, so a refused
 * key or an unreachable server leaves an existing file as it was.
 */
export async function checkLiveExport(options: LiveExportOptions): Promise<void> {
  const { format, output } = options;
  if (isBinaryFormat(format) && output === undefined && options.stdoutIsTTY) {
    throw new UsageError(`${format} is a binary format: not writing it to a terminal`, {
      hint: 'use -o FILE, or -o - to write to stdout on purpose',
    });
  }
  resolveColumns(options.kind, [], options.fields);
  if (output === undefined || output === '-') return;
  if (options.append === true && !isLiveOutput(format, output)) {
    throw new UsageError(
      `${format}${isGzipPath(output) ? ' (gzipped)' : ''} cannot be continued: a new run would replace ${output}`,
      { hint: 'with --state, write jsonl, ndjson, csv or tsv, which each run appends to' },
    );
  }
  // An object in a store is uploaded whole at the end: only its name can be checked before connecting.
  await storeOf(output).checkWritable(output);
}

export async function openLiveExport(options: LiveExportOptions): Promise<LiveExport> {
  const { format, output } = options;
  await checkLiveExport(options);
  const toStdout = output === undefined || output === '-';
  const live = isLiveOutput(format, output);
  const { columns, projected } = resolveColumns(options.kind, [], options.fields);
  const sink: Sink = toStdout
    ? new StdoutSink(options.stdout)
    : live
      ? await LiveFileSink.open(output, {
          append: options.append === true,
          ends: format === 'csv' ? 'csv' : 'line',
        })
      : await openFileSink(output);
  // A continued file gets the writer's preamble (a csv header) only when empty.
  const preamble =
    sink instanceof LiveFileSink && sink.existing !== undefined
      ? new PreambleSink(sink, sink.existing)
      : undefined;
  const ctx: WriterContext = {
    sink: preamble ?? sink,
    columns,
    projected,
    kind: options.kind,
    sanitize: options.sanitize ?? true,
    title: options.title,
    link: undefined,
    linkBase: options.linkBase,
    terminalWidth: options.terminalWidth ?? 80,
    tableStyle: options.tableStyle,
    warn: options.warn,
  };
  let writer: FormatWriter;
  try {
    writer = await createWriter(format, ctx);
    if (preamble !== undefined) {
      await preamble.settle(output!);
      const { cut } = preamble.existing;
      if (cut > 0) {
        options.warn(
          `${output}: removed a record cut short by an earlier run (its last ${cut} bytes); the stream sends it again`,
        );
      }
    }
    // A csv header, a json bracket: there from the start, like the records after it.
    if (live || toStdout) await sink.flush();
  } catch (error) {
    await sink.abort();
    throw error;
  }
  let records = 0;
  let done = false;
  return {
    live,
    takesLines: (format === 'jsonl' || format === 'ndjson') && !projected,
    async writeLines(text, count) {
      if (count === 0 || sink.broken) return;
      await sink.write(text);
      records += count;
      if (live || toStdout) await sink.flush();
    },
    get broken() {
      return sink.broken;
    },
    get records() {
      return records;
    },
    async write(page) {
      if (page.length === 0 || sink.broken) return;
      await writer.writePage(page);
      records += page.length;
      if (live || toStdout) await sink.flush();
    },
    async finish() {
      if (done) return { path: sink.path };
      done = true;
      if (!sink.broken) await writer.finish();
      if (sink.broken) await sink.abort();
      else await sink.commit();
      return { path: sink.path };
    },
    async abort() {
      if (done) return;
      done = true;
      await sink.abort();
    },
  };
}

/**
 * The sink a writer is created on when a file is continued: it holds what
 * the writer writes first (its header), then passes everything through. The
 * header goes to an empty file; a file that starts with another one (other
 * --fields, another format) is refused rather than mixed, and left as it
 * was. Once the header matches, a record cut short at the end is removed.
 */
class PreambleSink implements Sink {
  private held: string | undefined = '';

  constructor(
    private readonly sink: LiveFileSink,
    readonly existing: ExistingFile,
  ) {}

  get broken(): boolean {
    return this.sink.broken;
  }

  get path(): string | undefined {
    return this.sink.path;
  }

  write(chunk: string | Uint8Array): Promise<void> {
    if (this.held === undefined) return this.sink.write(chunk);
    this.held += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return Promise.resolve();
  }

  /**
   * After the writer is made: checks its header against a non-empty file,
   * cuts a torn last record, and writes the header to an empty file.
   */
  async settle(output: string): Promise<void> {
    const { existing } = this;
    const header = this.held ?? '';
    this.held = undefined;
    if (
      existing.size > 0 &&
      !existing.head.subarray(0, Buffer.byteLength(header)).equals(Buffer.from(header))
    ) {
      throw new UsageError(`${output} was started with other columns than this run writes`, {
        hint: 'continue it with the -f and --fields it was started with, or write another file',
      });
    }
    await this.sink.dropTornRecord();
    if (existing.size === 0) await this.sink.write(header);
  }

  flush(): Promise<void> {
    return this.sink.flush();
  }

  asWritable(): Writable {
    return this.sink.asWritable();
  }

  commit(): Promise<void> {
    return this.sink.commit();
  }

  abort(): Promise<void> {
    return this.sink.abort();
  }
}
