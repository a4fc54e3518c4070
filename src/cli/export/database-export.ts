/**
 * Records into a database table (`-o postgres://…`, `-o duckdb:…`): the
 * session is opened from the output settings (--table, --write), each page
 * is one batch (one transaction), and `replace` swaps its table in only once
 * every batch is in. Memory holds two batches at most (the one being
 * written and the next, read meanwhile), three where the session writes
 * ahead (writesAhead).
 */
import { UsageError } from '../../api/errors.js';
import { isEncoded } from '../../output/format-writer.js';
import type { Page } from '../../output/format-writer.js';
import type { DatabaseSession, TableOptions } from '../../output/destinations/database/types.js';
import { fileReader } from '../../output/destinations/database/open.js';
import type { DatabaseDestination } from '../../output/destinations/destination.js';
import type { ApiRecord, RecordKind } from '../../output/types.js';
import { counted } from '../runtime/reporter.js';
import type { Runtime } from '../runtime/runtime.js';

/** The most records a transaction may hold (a page of the service's is at most 100). */
export const MAX_BATCH = 10_000;

/** The table options of this run: the kind decides the default table; counts are appended. */
export function tableOptions(runtime: Runtime, kind: RecordKind | 'count'): TableOptions {
  const { table, write } = runtime.settings;
  if (kind === 'count' && write === 'merge') {
    throw new UsageError('--write merge means nothing for count: its records have no id', {
      hint: 'counts are appended (the default), or --write replace keeps the last one',
    });
  }
  return { kind, table, write: write ?? (kind === 'count' ? 'append' : 'merge') };
}

export async function openSession(
  runtime: Runtime,
  destination: DatabaseDestination,
  kind: RecordKind | 'count',
): Promise<DatabaseSession> {
  return destination.open(tableOptions(runtime, kind), {
    note: (message) => runtime.report.notice(message),
  });
}

export interface DatabaseExportOptions {
  /** Gather small pages into batches of up to this many records (convert); default: a page is a batch. */
  readonly gather?: number;
  /** The table's kind when the records' own says too little (a count log, a directory profile). */
  readonly tableKind?: RecordKind | 'count';
}

/**
 * Writes every page into the table, a batch per transaction; the records
 * written. While the database writes one batch, the next is read and
 * gathered: the reader's parsing and the server's work overlap instead of
 * taking turns. Where the session takes it (writesAhead), two writes are in
 * flight, so that the server finds the next batch waiting when it is done
 * with one; three batches at most in memory.
 */
export async function exportToDatabase(
  runtime: Runtime,
  pages: AsyncIterable<Page>,
  kind: RecordKind | 'count',
  destination: DatabaseDestination,
  options: DatabaseExportOptions = {},
): Promise<number> {
  const session = await openSession(runtime, destination, options.tableKind ?? kind);
  let records = 0;
  /** Writes in flight, oldest first. */
  const writing: Promise<void>[] = [];
  const inFlight = session.writesAhead ? 2 : 1;
  try {
    const gather = Math.min(options.gather ?? 1, MAX_BATCH);
    let batch: ApiRecord[] = [];
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const taken = batch;
      batch = [];
      while (writing.length >= inFlight) await writing.shift();
      const write = session.writeBatch(taken).then(() => {
        records += taken.length;
      });
      // Its failure is thrown where it is awaited (a later flush, or the end), not as unhandled.
      write.catch(() => undefined);
      writing.push(write);
    };
    for await (const page of pages) {
      runtime.signal.throwIfAborted();
      // Only a file's formats ask for encoded pages; a database takes records.
      if (isEncoded(page)) throw new Error('a database takes records, not encoded pages');
      for (let at = 0; at < page.length; at += MAX_BATCH) {
        const part = page.slice(at, at + MAX_BATCH);
        if (batch.length + part.length > gather) await flush();
        batch.push(...part);
        if (batch.length >= gather) await flush();
      }
    }
    await flush();
    while (writing.length > 0) await writing.shift();
    await session.finish();
  } finally {
    // Batches still being written when the run failed end (committed or rolled back) before the connection does.
    await Promise.allSettled(writing);
    await session.close();
  }
  runtime.report.notice(`wrote ${counted(records, 'record')} to ${session.describe}`);
  return records;
}

/**
 * `news convert FILE` into a database, the file handed to the session whole
 * (its `loadFile`, a fenced fast path: DuckDB reads it itself; PostgreSQL
 * parses and encodes it in a worker thread). True when the records are in;
 * false when the session declined (a field the table lacks, a line it
 * cannot read, …), and the caller reads the file the plain way, which
 * reports or handles what was declined as it always does. DuckDB declines
 * before writing anything; PostgreSQL may have committed batches of a merge
 * by then, which the plain path merges again to the same rows.
 */
export async function loadFileIntoDatabase(
  runtime: Runtime,
  file: string,
  kind: RecordKind,
  destination: DatabaseDestination,
  threads: boolean,
): Promise<boolean> {
  const session = await openSession(runtime, destination, kind);
  let records: number;
  try {
    const loaded = await session.loadFile?.(file, {
      threads,
      signal: runtime.signal,
      committed: (lines) =>
        runtime.report.debug(`committed the first ${counted(lines, 'line')} of ${file}`),
    });
    if (loaded === undefined) return false;
    if ('declined' in loaded) {
      runtime.report.debug(
        `did not read ${file} by ${fileReader(session.engine)}: ${loaded.declined}`,
      );
      return false;
    }
    records = loaded.records;
    await session.finish();
  } finally {
    await session.close();
  }
  runtime.report.debug(`${file} read by ${fileReader(session.engine)}`);
  runtime.report.notice(`wrote ${counted(records, 'record')} to ${session.describe}`);
  return true;
}
