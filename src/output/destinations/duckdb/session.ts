/**
 * A DuckDB destination: the file opened for the run. DuckDB locks a file
 * it writes for its process, so the open itself is the state's lock: a
 * second run on the same file is refused (in words, naming the process
 * DuckDB reports), here and in another process. Each batch is one
 * transaction: the tables made ready, the records loaded (load.ts: typed
 * values through appenders, straight into the tables when the batch's ids
 * are new to them), the state's row; then COMMIT.
 *
 * `@duckdb/node-api` is imported here only, and this module only when a
 * `duckdb:` URL is used: its binding is large, and it is an optional
 * dependency that an install may have left out.
 */
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { NewsError } from '../../../api/errors.js';
import type { ApiRecord } from '../../types.js';
import { DatabaseError, DatabaseLockError, SchemaConflictError } from '../database/errors.js';
import { bareName, ident, qualified, schemaOf } from '../database/names.js';
import { fileStore } from '../file/store.js';
import { layoutFor } from '../database/schema.js';
import { TableSet } from '../database/tables.js';
import type {
  DatabaseHooks,
  DatabaseSession,
  DatabaseUrl,
  FileLoad,
  FileLoadOptions,
  OpenDatabase,
  StoredState,
  TableOptions,
} from '../database/types.js';
import { duckdbPath } from '../database/url.js';
import { FileLoader } from './file-load.js';
import { BatchLoader, type Duck } from './load.js';
import {
  addColumn,
  COLUMNS_QUERY,
  createState,
  createTable,
  duckdbDialect,
  duckdbText,
  existingColumns,
  stateTable,
  upsertState,
} from './sql.js';

const REPLACING = '__new';

/**
 * DuckDB's settings for a run.
 * - memory_limit: its buffer pool would otherwise grow to 80 % of the
 *   machine's memory; a load keeps little in memory (what does not fit goes
 *   to `FILE.tmp/` beside the file until the next checkpoint).
 * - checkpoint_threshold: a checkpoint rewrites each table's last, partly
 *   filled row group (up to 122,880 rows) whole, so checkpointing after every
 *   batch (DuckDB's default: past 16 MB of WAL, which a batch of 10,000
 *   articles is several times over) costs more as the table grows; one per
 *   gigabyte of WAL (about 140,000 articles) and one at close keep a load's
 *   cost in proportion to its size (30,000 articles in batches of 1,000:
 *   half the CPU time).
 * - threads: the rows are appended on Node's thread and DuckDB's work comes
 *   between, so a second DuckDB thread only contended for the cores (a
 *   fifth more CPU time and wall time, measured on 2 cores).
 * - preserve_insertion_order: no statement of a session needs it.
 */
const INSTANCE_SETTINGS: Record<string, string> = {
  memory_limit: '256MB',
  checkpoint_threshold: '1GB',
  threads: '1',
  preserve_insertion_order: 'false',
};

/**
 * Files open in this process. DuckDB's file lock is per process, so two
 * sessions of one process on one file would not see each other's lock.
 */
const openHere = new Map<string, string>();

class DuckdbSession implements DatabaseSession {
  readonly engine = 'duckdb' as const;
  readonly writesAhead = false;
  readonly describe: string;
  readonly table: string;
  private readonly tables: TableSet;
  private readonly state: string;
  private readonly replace: boolean;
  private fresh = true;
  private closed = false;
  private readonly loader: BatchLoader;

  constructor(
    duck: Duck,
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
    this.loader = new BatchLoader(duck, connection, this.tables);
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
      if (records.length > 0) await this.loader.load(records);
      if (state !== undefined) {
        await this.run(createState(this.state));
        await this.run(upsertState(this.state), [state.name, state.value]);
      }
    });
  }

  /** A JSON Lines file read by DuckDB itself (file-load.ts), or why not; nothing is written when it declines. */
  async loadFile(path: string, { committed, signal }: FileLoadOptions = {}): Promise<FileLoad> {
    if (this.closed) throw this.fail(new Error('the session is closed'));
    const loader = new FileLoader(
      (sql, values) => this.run(sql, values),
      this.tables,
      (work) =>
        this.transaction(async () => {
          await this.prepare([]);
          await work();
        }),
    );
    try {
      return await loader.load(path, committed, signal);
    } catch (error) {
      throw this.fail(error);
    }
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
      this.loader.reset();
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

/**
 * The binding, by `require`: the package is CommonJS, and `import()` of it
 * has Node scan its files for their exports first (about 0.15 s).
 */
function loadDuckdb(): Duck {
  try {
    return createRequire(import.meta.url)('@duckdb/node-api') as Duck;
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
  // Refused as a file -o is (exit 2, the same words, before any request), not by DuckDB's own message.
  await fileStore.checkWritable(path);
  const duck = loadDuckdb();
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
