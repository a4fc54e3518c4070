/**
 * A DuckDB destination: the file opened for the run. DuckDB locks a file
 * it writes for its process, so the open itself is the state's lock: a
 * second run on the same file is refused (in words, naming the process
 * DuckDB reports), here and in another process. Each batch is one
 * transaction: the tables made ready; the records' typed values appended
 * straight into the table when none of their ids is in it yet (a first
 * load, the newest pages), or else into a staging table merged by one
 * INSERT … ON CONFLICT; each child table's old rows of those ids deleted
 * and the new ones appended; the state's row; then COMMIT.
 *
 * `@duckdb/node-api` is imported here only, and this module only when a
 * `duckdb:` URL is used: its binding is large, and it is an optional
 * dependency that an install may have left out.
 */
import { realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type {
  DuckDBAppender,
  DuckDBConnection,
  DuckDBInstance,
  DuckDBListValue,
  DuckDBTimestampTZValue,
  DuckDBValue,
} from '@duckdb/node-api';
import { NewsError } from '../../../api/errors.js';
import type { ApiRecord } from '../../types.js';
import { DatabaseError, DatabaseLockError, SchemaConflictError } from '../database/errors.js';
import { bareName, ident, qualified, schemaOf } from '../database/names.js';
import type { FieldDef } from '../database/fields.js';
import { layoutFor, type TableSpec } from '../database/schema.js';
import { TableSet } from '../database/tables.js';
import type {
  DatabaseHooks,
  DatabaseSession,
  DatabaseUrl,
  OpenDatabase,
  StoredState,
  TableOptions,
} from '../database/types.js';
import { duckdbPath } from '../database/url.js';
import { appendItems, appendRecords, type ListTexts, slotsFor } from './rows.js';
import {
  addColumn,
  CAST_STAMPS,
  COLUMNS_QUERY,
  CREATE_IDS,
  createStage,
  createState,
  createTable,
  DROP_STAGE,
  deleteChildren,
  duckdbDialect,
  existingColumns,
  mergeMain,
  stateTable,
  takenIds,
  upsertState,
} from './sql.js';
import { lastVersions, oddStamps, Writers } from './values.js';

type Duck = typeof import('@duckdb/node-api');

const REPLACING = '__new';

/**
 * DuckDB's settings for a run. Its buffer pool would otherwise grow to 80 %
 * of the machine's memory: a load keeps little in memory (what does not fit
 * goes to `FILE.tmp/` beside the file until the checkpoint). A checkpoint
 * rewrites the table's last, partly filled row group (up to 122,880 rows)
 * whole, so checkpointing after every batch (DuckDB's default, past 16 MB of
 * WAL) costs time that grows with the table; one per gigabyte of WAL (about
 * 140,000 articles) and at close keeps a load's cost in proportion to its size.
 * No statement of a session needs rows in their insertion order.
 */
const INSTANCE_SETTINGS: Record<string, string> = {
  memory_limit: '128MB',
  checkpoint_threshold: '1GB',
  preserve_insertion_order: 'false',
};

/**
 * Files open in this process. DuckDB's file lock is per process, so two
 * sessions of one process on one file would not see each other's lock.
 */
const openHere = new Map<string, string>();

class DuckdbSession implements DatabaseSession {
  readonly engine = 'duckdb' as const;
  readonly describe: string;
  readonly table: string;
  private readonly tables: TableSet;
  private readonly state: string;
  private readonly replace: boolean;
  private fresh = true;
  private closed = false;
  /** Each target table's columns in their order, for the columns this session writes to it. */
  private readonly orders = new Map<string, { ours: readonly FieldDef[]; order: string[] }>();

  constructor(
    private readonly duck: Duck,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly file: string,
    shown: string,
    options: TableOptions,
    hooks: DatabaseHooks,
  ) {
    const layout = layoutFor(options);
    this.table = layout.main.name;
    this.describe = `${shown}, table ${this.table}`;
    this.replace = options.write === 'replace';
    this.state = stateTable(schemaOf(this.table));
    this.tables = new TableSet(layout, duckdbDialect, this.describe, hooks.note, (spec) =>
      this.replace ? `${spec.name}${REPLACING}` : spec.name,
    );
  }

  private async run(
    sql: string,
    values?: (DuckDBValue | null)[],
  ): Promise<Record<string, unknown>[]> {
    const reader = await this.connection.runAndReadAll(sql, values);
    return reader.getRowObjectsJS() as Record<string, unknown>[];
  }

  private fail(error: unknown): Error {
    if (error instanceof NewsError) return error;
    return new DatabaseError(`${this.describe}: ${duckdbText(error)}`);
  }

  /** The file's lock, taken when it was opened, is the state's: nothing more to take. */
  async lockState(_name: string): Promise<void> {
    if (this.closed) throw this.fail(new Error('the session is closed'));
  }

  async readState(name: string): Promise<string | undefined> {
    try {
      const found = await this.run(
        `SELECT 1 FROM information_schema.tables WHERE table_catalog = current_database() AND table_schema = COALESCE($1, current_schema()) AND table_name = 'news_state'`,
        [schemaOf(this.table) ?? null],
      );
      if (found.length === 0) return undefined;
      const rows = await this.run(
        `SELECT value::VARCHAR AS value FROM ${this.state} WHERE name = $1`,
        [name],
      );
      const value = rows[0]?.['value'];
      return typeof value === 'string' ? value : undefined;
    } catch (error) {
      throw this.fail(error);
    }
  }

  async writeBatch(records: readonly ApiRecord[], state?: StoredState): Promise<void> {
    await this.transaction(async () => {
      await this.prepare(records);
      if (records.length > 0) await this.load(records);
      if (state !== undefined) {
        await this.run(createState(this.state));
        await this.run(upsertState(this.state), [state.name, state.value]);
      }
    });
  }

  async finish(): Promise<void> {
    if (!this.replace) return;
    await this.transaction(async () => {
      await this.prepare([]);
      for (const spec of this.tables.specs) {
        await this.run(`DROP TABLE IF EXISTS ${qualified(spec.name)}`);
        await this.run(
          `ALTER TABLE ${qualified(spec.name + REPLACING)} RENAME TO ${ident(bareName(spec.name))}`,
        );
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      this.connection.closeSync();
      this.instance.closeSync();
    } finally {
      openHere.delete(this.file);
    }
  }

  private async transaction(work: () => Promise<void>): Promise<void> {
    if (this.closed) throw this.fail(new Error('the session is closed'));
    try {
      await this.run('BEGIN TRANSACTION');
      await work();
      await this.run('COMMIT');
    } catch (error) {
      await this.run('ROLLBACK').catch(() => undefined);
      this.tables.reset();
      this.orders.clear();
      throw this.fail(error);
    }
  }

  private async prepare(records: readonly ApiRecord[]): Promise<void> {
    if (this.fresh) {
      if (this.replace) {
        for (const spec of this.tables.specs) {
          await this.run(`DROP TABLE IF EXISTS ${qualified(spec.name + REPLACING)}`);
        }
      }
      this.fresh = false;
    }
    await this.tables.prepare(records, {
      columns: async (name) =>
        existingColumns(await this.run(COLUMNS_QUERY, [schemaOf(name) ?? null, bareName(name)])),
      create: async (spec, name, columns) => {
        await this.run(createTable(spec, name, columns));
      },
      add: async (name, column) => {
        await this.run(addColumn(name, column));
      },
    });
  }

  private async load(records: readonly ApiRecord[]): Promise<void> {
    const { layout } = this.tables;
    // A merge writes each id once, its last version in the batch.
    const rows = layout.merge ? lastVersions(records) : records;
    const writers = await this.writers(rows);
    const main = this.tables.target(layout.main);
    const columns = this.tables.columnsOf(layout.main);
    if (layout.merge) {
      await this.run(CREATE_IDS);
      const id = writers.of('bigint');
      await this.append('news_ids', 'main', 'temp', (a) => {
        for (const row of rows) {
          id(a, row['id']);
          a.endRow();
        }
      });
    }
    const taken = layout.merge && (await this.run(takenIds(main)))[0]?.['taken'] !== false;
    // The child rows first: they put together the lists' JSON that the parent rows then take.
    const lists: ListTexts = new Map();
    for (const child of layout.children) await this.loadChild(child, rows, writers, lists);
    if (taken) {
      await this.run(createStage(columns));
      const slots = slotsFor(
        columns.map((c) => c.name),
        columns,
        writers,
        false,
      );
      await this.append('news_stage', 'main', 'temp', (a) =>
        appendRecords(a, main, slots, rows, lists),
      );
      await this.run(mergeMain(main, columns));
      await this.run(DROP_STAGE);
    } else {
      const slots = slotsFor(await this.order(main, columns), columns, writers, false);
      await this.append(bareName(main), schemaOf(main), null, (a) =>
        appendRecords(a, main, slots, rows, lists),
      );
    }
  }

  /** A list's rows: the merged records' old ones deleted, the new ones appended. */
  private async loadChild(
    child: TableSpec,
    rows: readonly ApiRecord[],
    writers: Writers,
    lists: ListTexts,
  ): Promise<void> {
    const { layout } = this.tables;
    const name = this.tables.target(child);
    if (layout.merge) await this.run(deleteChildren(name, layout.kind.parentColumn));
    const columns = this.tables.columnsOf(child);
    const slots = slotsFor(await this.order(name, columns), columns, writers, true);
    const field = child.list?.field as string;
    // The parent keeps the list whole in its JSON column: its text is put together here.
    const whole = this.tables.columnsOf(layout.main).find((c) => c.name === field);
    const texts = whole?.type === 'json' ? new Array<string | undefined>(rows.length) : undefined;
    if (texts !== undefined) lists.set(field, texts);
    await this.append(bareName(name), schemaOf(name), null, (a) =>
      appendItems(a, name, slots, rows, field, texts),
    );
  }

  /**
   * The batch's writers, with DuckDB's reading of every timestamp that is
   * not an ISO 8601 string with a zone, cast in one query before anything
   * is appended (one it cannot read fails the batch here).
   */
  private async writers(rows: readonly ApiRecord[]): Promise<Writers> {
    const writers = new Writers((micros) => this.duck.timestampTZValue(micros));
    const odd = new Set<string>();
    for (const spec of this.tables.specs) {
      const names = this.tables
        .columnsOf(spec)
        .filter((c) => c.type === 'timestamptz')
        .map((c) => c.name);
      if (names.length > 0) oddStamps(this.tables.rowsOf(spec, rows), names, odd);
    }
    if (odd.size === 0) return writers;
    const texts = [...odd];
    const reader = await this.connection.runAndReadAll(CAST_STAMPS, [this.duck.listValue(texts)]);
    const read = reader.getRows()[0]?.[0] as DuckDBListValue;
    texts.forEach((text, i) => {
      writers.stamps.set(text, read.items[i] as DuckDBTimestampTZValue);
    });
    return writers;
  }

  /** The table's columns in their order (read again when the session's columns for it change). */
  private async order(name: string, ours: readonly FieldDef[]): Promise<string[]> {
    const known = this.orders.get(name);
    if (known?.ours === ours) return known.order;
    const rows = await this.run(COLUMNS_QUERY, [schemaOf(name) ?? null, bareName(name)]);
    const order = rows.map((r) => String(r['column_name']));
    this.orders.set(name, { ours, order });
    return order;
  }

  /** Fills a table through an appender; nothing of a fill that fails is left to flush. */
  private async append(
    table: string,
    schema: string | null | undefined,
    catalog: string | null,
    fill: (appender: DuckDBAppender) => void,
  ): Promise<void> {
    const appender = await this.connection.createAppender(table, schema ?? null, catalog);
    try {
      fill(appender);
    } catch (error) {
      try {
        appender.clear();
        appender.closeSync();
      } catch {
        // The fill's error is the one to tell; the transaction is rolled back after it.
      }
      throw error;
    }
    appender.closeSync();
  }
}

/** DuckDB's message, first line (the rest is a caret under the SQL, which is ours). */
function duckdbText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? text).trim();
}

/** The file's path as a key: the same file however it was named. */
function fileKey(path: string): string {
  const absolute = resolve(path);
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return absolute;
  }
}

async function loadDuckdb(): Promise<typeof import('@duckdb/node-api')> {
  try {
    return await import('@duckdb/node-api');
  } catch (error) {
    throw new NewsError(`DuckDB support is not installed (${duckdbText(error)})`, {
      hint: 'it is an optional dependency: install news again without --omit=optional (npm install -g news-search-cli)',
    });
  }
}

export const openDuckdb: OpenDatabase = async (
  url: DatabaseUrl,
  options: TableOptions,
  hooks: DatabaseHooks,
) => {
  layoutFor(options);
  const path = duckdbPath(url.url);
  const file = fileKey(path);
  const holder = openHere.get(file);
  if (holder !== undefined) {
    throw new DatabaseLockError(`another run holds ${url.redacted} ${holder}`, {
      hint: 'wait for it to finish, or stop it; the same command then continues from its state',
    });
  }
  const duck = await loadDuckdb();
  let instance: DuckDBInstance;
  try {
    instance = await duck.DuckDBInstance.create(path, INSTANCE_SETTINGS);
  } catch (error) {
    throw openError(error, url.redacted);
  }
  let connection: DuckDBConnection;
  try {
    connection = await instance.connect();
  } catch (error) {
    instance.closeSync();
    throw openError(error, url.redacted);
  }
  openHere.set(file, `since ${new Date().toISOString()} (pid ${process.pid} on ${hostname()})`);
  return new DuckdbSession(duck, instance, connection, file, url.redacted, options, hooks);
};

/** A file another process holds, in words; any other failure with the file's name. */
function openError(error: unknown, shown: string): Error {
  const text = duckdbText(error);
  const lock = /Conflicting lock is held in (.*?) \(PID (\d+)\)/.exec(text);
  if (lock || /Could not set lock on file/i.test(text)) {
    const who = lock ? `(pid ${lock[2]}, ${lock[1]})` : '(another process)';
    return new DatabaseLockError(`another run holds ${shown} ${who}`, {
      hint: 'DuckDB lets one process write a file at a time: wait for it to finish, or stop it',
    });
  }
  if (error instanceof SchemaConflictError || error instanceof NewsError) return error;
  return new DatabaseError(`${shown}: ${text}`);
}
