/**
 * Where `webhooks listen` writes delivered articles: one record per article,
 * in a streaming format (jsonl by default, ndjson, csv, tsv), flushed after
 * every delivery so `| jq` sees each one at once. `-o FILE` is written as
 * deliveries arrive (not atomically at the end) and keeps every complete
 * record when listen stops. The format writers are the export's own.
 */
import { UsageError } from '../../api/errors.js';
import type { FormatWriter, WriterContext } from '../../output/format-writer.js';
import { STREAMING_FORMATS } from '../../output/formats.js';
import { LiveFileSink } from '../../output/live-file-sink.js';
import type { Sink } from '../../output/sink.js';
import { StdoutSink } from '../../output/stdout-sink.js';
import type { ApiRecord, FormatName } from '../../output/types.js';
import { terminalWidth } from '../export/export-pages.js';
import type { Runtime } from '../runtime/runtime.js';

const NEWLINE = Buffer.from('\n');

export interface RecordStream {
  readonly format: FormatName;
  /** Writes one delivery's records and flushes them. */
  write(records: readonly ApiRecord[]): Promise<void>;
  /**
   * jsonl/ndjson without --fields: each article's JSON text as received, so
   * nothing is re-encoded. False for the other formats.
   */
  readonly takesRaw: boolean;
  /** Writes one delivery's articles given as their raw JSON bytes (one line each). */
  writeRaw(articles: readonly Uint8Array[]): Promise<void>;
  /** True once stdout's reader went away. */
  readonly broken: boolean;
  close(): Promise<void>;
}

/** Picks the format before the receiver starts, so a bad -o name fails at once (exit 2). */
export async function streamingFormat(runtime: Runtime): Promise<FormatName> {
  const { format, output } = runtime.settings;
  let chosen: FormatName | undefined = format;
  if (chosen === undefined && output !== undefined && output !== '-') {
    const { resolveDestination } = await import('../../output/destinations/registry.js');
    // A database takes records, in no format.
    if (resolveDestination(output).kind === 'database') return 'jsonl';
    const { formatFromPath } = await import('../../output/index.js');
    chosen = formatFromPath(output);
    if (chosen === undefined) {
      throw new UsageError(`cannot tell the format from the file name "${output}"`, {
        hint: `name it with -f: ${STREAMING_FORMATS.join(', ')}`,
      });
    }
  }
  // Any other format was refused before this (CommandSpec.formats, checked by program.ts).
  chosen ??= 'jsonl';
  return chosen;
}

export async function openRecordStream(
  runtime: Runtime,
  format: FormatName,
): Promise<RecordStream> {
  const { settings, io } = runtime;
  const { databaseRecordStream } = await import('./database-output.js');
  const database = await databaseRecordStream(runtime, format);
  if (database !== undefined) return database;
  const { createWriter, resolveColumns } = await import('../../output/export.js');
  const { columns, projected } = resolveColumns('article', [], settings.fields);
  const toFile = settings.output !== undefined && settings.output !== '-';
  const sink: Sink = toFile ? await LiveFileSink.open(settings.output!) : new StdoutSink(io.stdout);
  const ctx: WriterContext = {
    sink,
    columns,
    projected,
    kind: 'article',
    sanitize: settings.sanitize,
    title: 'news webhooks listen',
    link: undefined,
    terminalWidth: terminalWidth(runtime),
    warn: (m) => runtime.report.warn(m),
  };
  // csv and tsv give their header now; it stays batched in the sink and goes
  // out with the first delivery, after the URL line that stdout starts with.
  const writer: FormatWriter = await createWriter(format, ctx);
  let closed = false;
  return {
    format,
    get broken() {
      return sink.broken;
    },
    takesRaw: (format === 'jsonl' || format === 'ndjson') && !projected,
    async write(records) {
      if (closed || sink.broken) return;
      await writer.writePage(records);
      await sink.flush();
      if (sink.broken) runtime.stdoutClosed = true;
    },
    async writeRaw(articles) {
      if (closed || sink.broken || articles.length === 0) return;
      const parts: Uint8Array[] = [];
      for (const article of articles) parts.push(article, NEWLINE);
      await sink.write(Buffer.concat(parts));
      await sink.flush();
      if (sink.broken) runtime.stdoutClosed = true;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (sink.broken) {
        await sink.abort();
        return;
      }
      await writer.finish();
      await sink.commit();
      if (toFile) runtime.report.notice(`records written to ${settings.output}`);
    },
  };
}
