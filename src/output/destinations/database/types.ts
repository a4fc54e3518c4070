/**
 * What a run asks of a database destination (PostgreSQL or DuckDB): tables
 * made from the records' fields, batches written together with the run's
 * state in one transaction, one run at a time on a state.
 */
import type { ApiRecord, RecordKind } from '../../types.js';

export type DatabaseEngine = 'postgres' | 'duckdb';

/** merge: by id, the latest version wins with its child rows; append: add rows; replace: swap in at finish(). */
export type WriteMode = 'merge' | 'append' | 'replace';

export interface TableOptions {
  /** The record kind decides the default table name and which lists become child tables. */
  readonly kind: RecordKind | 'count';
  /** `--table NAME` (`schema.table` on PostgreSQL); absent: the kind's default (`articles`, `people`, …, `counts`). */
  readonly table?: string | undefined;
  readonly write: WriteMode;
}

/** A run's state as the database keeps it: a row of `news_state`, keyed by name. */
export interface StoredState {
  readonly name: string;
  /** The run's state as JSON text (the same object a `--state FILE` holds). */
  readonly value: string;
}

export interface DatabaseHooks {
  /** A `note:` line for stderr (a column added for a new field, a table created). */
  readonly note: (message: string) => void;
}

/** One open connection to one destination table, for one run. */
export interface DatabaseSession {
  readonly engine: DatabaseEngine;
  /** Where it writes, for messages and logs: host, port, database and table; never the password. */
  readonly describe: string;
  /** The table rows go to (after defaults), `schema.table` or `table`. */
  readonly table: string;
  /**
   * Takes the state's lock for the life of the session (PostgreSQL: an advisory
   * lock; DuckDB: the file's own lock). Throws a NewsError naming the holder
   * (its pid and host) when another run holds it.
   */
  lockState(name: string): Promise<void>;
  /** The state's JSON text, or undefined when it was never written. */
  readState(name: string): Promise<string | undefined>;
  /**
   * Writes one batch (at most a page, or 10,000 records) and, when given, the
   * state, in one transaction: both are committed or neither. The first batch
   * creates or checks the tables (a missing column is added with a note; an
   * incompatible one is refused before anything is written). An empty batch
   * with a state still commits the state.
   */
  writeBatch(records: readonly ApiRecord[], state?: StoredState): Promise<void>;
  /**
   * writeBatch may be called again, without a state, before the last call is
   * in; the batches still commit in order (PostgreSQL sends the next one
   * ahead of the last one's answer).
   */
  readonly writesAhead: boolean;
  /**
   * A fast path: a whole JSON Lines file loaded in batches of at most 10,000
   * records (DuckDB reads it itself; PostgreSQL parses it on a worker
   * thread), with the same result as writeBatch of its records; `declined`
   * when the file holds anything it would not write exactly so, and the
   * caller reads the file the plain way. DuckDB declines before writing
   * anything; PostgreSQL, which finds out as it goes, only in a merge,
   * whose committed batches the plain path merges again to the same rows.
   */
  loadFile?(path: string, options?: FileLoadOptions): Promise<FileLoad>;
  /** End of a run that succeeded: `replace` swaps its table in; others do nothing. */
  finish(): Promise<void>;
  /** Releases the lock and the connection; safe to call twice, and after a failure. */
  close(): Promise<void>;
}

/** A file loaded by the engine itself: its records, or why it declined (nothing written). */
export type FileLoad = { readonly records: number } | { readonly declined: string };

export interface FileLoadOptions {
  /** Told after each batch how far into the file the tables are (in lines). */
  readonly committed?: (lines: number) => void;
  /** Whether it may start a worker thread (`news convert --jobs 1`: none). */
  readonly threads?: boolean;
  /** Ctrl-C: no batch begins after it (the one under way commits or rolls back). */
  readonly signal?: AbortSignal;
}

/** A parsed `postgres://…` or `duckdb:…` destination. */
export interface DatabaseUrl {
  readonly engine: DatabaseEngine;
  /** The URL as given, for opening. */
  readonly url: string;
  /** Without the password: what messages, --dry-run and --log-file show. */
  readonly redacted: string;
}

export type OpenDatabase = (
  url: DatabaseUrl,
  options: TableOptions,
  hooks: DatabaseHooks,
) => Promise<DatabaseSession>;
