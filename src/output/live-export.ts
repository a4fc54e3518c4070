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
import { LiveFileSink } from './live-file-sink.js';
import { openFileSink } from './open-sink.js';
import { isS3Url } from './s3/url.js';
import type { Sink } from './sink.js';
import { StdoutSink } from './stdout-sink.js';
import type { ApiRecord, FormatName } from './types.js';
import type { ExportOptions } from './export.js';

export const LIVE_FORMATS: readonly FormatName[] = ['jsonl', 'ndjson', 'csv', 'tsv', 'table'];

/** Whether records in this format reach this destination as they arrive. */
export function isLiveOutput(format: FormatName, output: string | undefined): boolean {
  if (!LIVE_FORMATS.includes(format)) return false;
  // An object in a store is uploaded whole, never appended to.
  return output === undefined || output === '-' || !(isGzipPath(output) || isS3Url(output));
}

/** The options of an export, without what only a paged export has (the abort signal, the RSS link). */
export type LiveExportOptions = Omit<ExportOptions, 'signal' | 'link'>;

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

export async function openLiveExport(options: LiveExportOptions): Promise<LiveExport> {
  const { format, output } = options;
  const toStdout = output === undefined || output === '-';
  if (isBinaryFormat(format) && output === undefined && options.stdoutIsTTY) {
    throw new UsageError(`${format} is a binary format: not writing it to a terminal`, {
      hint: 'use -o FILE, or -o - to write to stdout on purpose',
    });
  }
  const live = isLiveOutput(format, output);
  const { columns, projected } = resolveColumns(options.kind, [], options.fields);
  const sink: Sink = toStdout
    ? new StdoutSink(options.stdout)
    : live
      ? await LiveFileSink.open(output)
      : await openFileSink(output);
  const ctx: WriterContext = {
    sink,
    columns,
    projected,
    kind: options.kind,
    sanitize: options.sanitize ?? true,
    title: options.title,
    link: undefined,
    terminalWidth: options.terminalWidth ?? 80,
    tableStyle: options.tableStyle,
    warn: options.warn,
  };
  let writer: FormatWriter;
  try {
    writer = await createWriter(format, ctx);
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
