/**
 * The export driver: pulls pages one at a time, hands each to the format
 * writer and pulls the next only once it is written (backpressure end to
 * end), then commits the sink. Heavy writers are loaded here with import()
 * so that importing the output layer stays cheap.
 */
import { InterruptedError, UsageError } from '../api/errors.js';
import type { Column } from './columns.js';
import { fixedColumns, inferColumns, selectColumns, selectableColumns } from './columns.js';
import { fastPathsOn } from './fast-paths.js';
import { isEncoded } from './format-writer.js';
import type { FormatWriter, Page, PageSource, WriterContext } from './format-writer.js';
import { isBinaryFormat, isFormatName } from './formats.js';
import { openFileSink } from './open-sink.js';
import type { Sink } from './sink.js';
import { StdoutSink } from './stdout-sink.js';
import type { ApiRecord, FormatName, RecordKind } from './types.js';

export interface ExportOptions {
  format: FormatName;
  /** File path; '-' = stdout on purpose; undefined = stdout. */
  output?: string | undefined;
  stdout: NodeJS.WritableStream;
  stdoutIsTTY: boolean;
  /** Picks default columns. */
  kind: RecordKind;
  /** `--fields`: dotted names, in order. */
  fields?: readonly string[] | undefined;
  /** Neutralise spreadsheet formulas in csv, tsv and xlsx (default true). */
  sanitize?: boolean | undefined;
  /** For `table` (default 80). */
  terminalWidth?: number | undefined;
  /** For `table`: borderless (default) or boxed. */
  tableStyle?: 'plain' | 'box' | undefined;
  /**
   * Generic records: the columns shown when there are none, so a table or csv
   * prints its header alone, as the fixed kinds do (an empty list of sessions).
   */
  emptyColumns?: readonly string[] | undefined;
  /** Feed or sheet title (e.g. the command line), for rss and xlsx. */
  title?: string | undefined;
  /** The RSS channel link (default https://apitube.io/). */
  link?: string | undefined;
  /** The API's base URL: rss makes relative record links absolute against it (none: left out). */
  linkBase?: string | undefined;
  warn: (message: string) => void;
  /** Abort → the temporary file is removed and InterruptedError is thrown. */
  signal?: AbortSignal | undefined;
  /** An `s3://` output: bytes the store has taken so far, for a progress line. */
  onUploaded?: ((bytes: number) => void) | undefined;
  /** An `s3://` output among many open at once: uploaded once whole (FileSinkOptions). */
  uploadWhole?: boolean | undefined;
}

export interface ExportResult {
  records: number;
  /** The reader went away (EPIPE on stdout); the export stopped quietly. */
  stoppedEarly: boolean;
  /** The file written, when writing to a file. */
  path?: string;
}

export async function createWriter(format: FormatName, ctx: WriterContext): Promise<FormatWriter> {
  switch (format) {
    case 'json':
      return (await import('./formats/json.js')).createJsonWriter(ctx);
    case 'jsonl':
    case 'ndjson':
      return (await import('./formats/json.js')).createJsonLinesWriter(ctx, format);
    case 'csv':
      return (await import('./formats/csv.js')).createCsvWriter(ctx);
    case 'tsv':
      return (await import('./formats/tsv.js')).createTsvWriter(ctx);
    case 'xml':
      return (await import('./formats/xml.js')).createXmlWriter(ctx);
    case 'rss':
      return (await import('./formats/rss.js')).createRssWriter(ctx);
    case 'xlsx':
      return (await import('./formats/xlsx.js')).createXlsxWriter(ctx);
    case 'parquet':
      // The column store is a fast path; hyparquet-writer's ParquetWriter is the plain one.
      return fastPathsOn()
        ? (await import('./formats/parquet.js')).createParquetWriter(ctx)
        : (await import('./formats/parquet-plain.js')).createPlainParquetWriter(ctx);
    case 'table':
      return (await import('./formats/table.js')).createTableWriter(ctx);
  }
}

/**
 * The columns of an export: the kind's fixed list (or those inferred from the
 * first non-empty page for generic records), narrowed by `--fields`.
 */
export function resolveColumns(
  kind: RecordKind,
  sample: readonly ApiRecord[],
  fields: readonly string[] | undefined,
  emptyColumns?: readonly string[],
): { columns: Column[]; projected: boolean } {
  // Nothing to infer from or check names against: nothing will be written but a header.
  const headerOnly = kind === 'generic' && sample.length === 0;
  const available =
    fixedColumns(kind) ??
    (headerOnly && emptyColumns !== undefined
      ? emptyColumns.map(namedColumn)
      : inferColumns(sample));
  if (fields === undefined || fields.length === 0)
    return { columns: [...available], projected: false };
  if (headerOnly) return { columns: fields.map(namedColumn), projected: true };
  return {
    columns: selectColumns(selectableColumns(kind) ?? available, fields),
    projected: true,
  };
}

/** A text column known by its name alone. */
function namedColumn(name: string): Column {
  return { name, type: 'string', path: name.split('.'), derive: 'value' };
}

function pageRecords(page: Page): number {
  return isEncoded(page) ? page.records : page.length;
}

function writePage(writer: FormatWriter, page: Page): Promise<void> {
  if (!isEncoded(page)) return writer.writePage(page);
  if (writer.writeEncoded === undefined) throw new Error('this format takes no encoded pages');
  return writer.writeEncoded(page);
}

function interrupted(): InterruptedError {
  return new InterruptedError('interrupted: the export was cancelled and no output file was left');
}

/**
 * Writes every page of `pages`. Record pages come first; a source that can
 * have pages encoded elsewhere (convert's workers) is told the writer's
 * encoder spec once the writer exists, and may then yield encoded pages.
 */
export async function exportRecords(
  pages: PageSource,
  options: ExportOptions,
): Promise<ExportResult> {
  const { format, signal } = options;
  if (!isFormatName(format)) throw new UsageError(`unknown format: ${String(format)}`);
  const toStdout = options.output === undefined || options.output === '-';
  if (isBinaryFormat(format) && options.output === undefined && options.stdoutIsTTY) {
    throw new UsageError(`${format} is a binary format: not writing it to a terminal`, {
      hint: 'use -o FILE, or -o - to write to stdout on purpose',
    });
  }
  if (signal?.aborted) throw interrupted();

  // Each step races the abort signal with a listener of its own, removed when
  // the step settles. (Promise.race against one long-lived pending "aborted"
  // promise would leak: every race leaves a reaction on it that keeps that
  // step's result, a whole page, alive until the export ends.)
  const race = <T>(p: Promise<T>): Promise<T> => {
    if (signal === undefined) return p;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(interrupted());
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  };

  const iterator = pages[Symbol.asyncIterator]();
  let exhausted = false;
  let sink: Sink | undefined;
  let records = 0;
  try {
    let current = await race(iterator.next());
    while (!current.done && pageRecords(current.value) === 0) current = await race(iterator.next());
    if (!current.done && isEncoded(current.value)) {
      throw new Error('exportRecords: an encoded page came before the writer asked for one');
    }
    const sample = current.done ? [] : (current.value as readonly ApiRecord[]);
    const { columns, projected } = resolveColumns(
      options.kind,
      sample,
      options.fields,
      options.emptyColumns,
    );

    sink = toStdout
      ? new StdoutSink(options.stdout)
      : await openFileSink(options.output!, {
          onUploaded: options.onUploaded,
          uploadWhole: options.uploadWhole,
        });
    const ctx: WriterContext = {
      sink,
      columns,
      projected,
      kind: options.kind,
      sanitize: options.sanitize ?? true,
      title: options.title,
      link: options.link,
      linkBase: options.linkBase,
      terminalWidth: options.terminalWidth ?? 80,
      tableStyle: options.tableStyle,
      warn: options.warn,
    };
    const writer = await race(createWriter(format, ctx));
    // The source may read the sampled records again on its workers.
    if (pages.encodeWith?.(writer.encoder, sink.copiesWrites === true) === true) {
      current = await race(iterator.next());
    }
    while (!current.done) {
      await race(writePage(writer, current.value));
      records += pageRecords(current.value);
      // A reader on stdout (`| jq`, `| head -1`) gets each page as soon as it is
      // encoded: nothing paid for waits in the batch for the next page, and a
      // closed pipe shows up before the next page is fetched.
      if (toStdout) await race(sink.flush());
      if (sink.broken) break;
      current = await race(iterator.next());
    }
    exhausted = current.done === true;
    if (!sink.broken) await race(writer.finish());
    if (sink.broken) {
      await sink.abort();
      return { records, stoppedEarly: true };
    }
    await race(sink.commit());
    return sink.path === undefined
      ? { records, stoppedEarly: false }
      : { records, stoppedEarly: false, path: sink.path };
  } catch (err) {
    await sink?.abort();
    // Ctrl-C during the rename, the last step, came too late: the file is whole.
    if (sink?.committed === true) {
      return sink.path === undefined
        ? { records, stoppedEarly: false }
        : { records, stoppedEarly: false, path: sink.path };
    }
    if (signal?.aborted) throw interrupted();
    throw err;
  } finally {
    if (!exhausted) {
      // Lets the page source stop its requests. Not awaited after an abort:
      // the source may still be inside next() and would make us wait for it.
      const closing = iterator.return?.();
      if (closing !== undefined) {
        if (signal?.aborted) closing.catch(() => undefined);
        else await closing.catch(() => undefined);
      }
    }
  }
}
