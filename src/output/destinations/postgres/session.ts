/**
 * A PostgreSQL destination: one connection for the run, which holds the
 * state's advisory lock for as long as it lives. Each batch is one
 * transaction: the tables made ready, the records COPYed into a staging
 * table, one INSERT … ON CONFLICT into the table and one per child table,
 * the state's row; then COMMIT. A failure anywhere rolls all of it back.
 */
import type { Client } from 'pg';
import type { ApiRecord } from '../../types.js';
import { DatabaseLockError } from '../database/errors.js';
import type { FieldDef } from '../database/fields.js';
import { lastVersions } from '../database/last-versions.js';
import { bareName, qualified, schemaOf } from '../database/names.js';
import { layoutFor, type TableSpec } from '../database/schema.js';
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
import {
  type AsyncPgConnection,
  connectPostgres,
  postgresError,
  withAsyncCommits,
} from './connect.js';
import { type BatchRows, childLines, mainLines } from './copy.js';
import { loadByWorker } from './file-load.js';
import {
  addColumn,
  COLUMNS_QUERY,
  copyInto,
  createStage,
  createState,
  createTable,
  deleteChildren,
  describeHolder,
  DURABLE_POINT,
  existingColumns,
  idsTaken,
  insertMain,
  LOCK_HOLDER,
  postgresDialect,
  stateTable,
  TRY_LOCK,
  STAGE_TABLE,
  swapStatements,
  upsertState,
} from './sql.js';
import { idArray, Statements } from './statements.js';

/** The suffix of the tables a `replace` run fills before finish() swaps them in. */
const REPLACING = '__new';

class PostgresSession implements DatabaseSession {
  readonly engine = 'postgres' as const;
  readonly describe: string;
  readonly table: string;
  private readonly tables: TableSet;
  private readonly state: string;
  private readonly replace: boolean;
  /** Nothing written yet: a replace's twin tables are still to be emptied. */
  private fresh = true;
  private replaceDone = false;
  private closed = false;
  /** A commit since the last durable point did not wait for the disk. */
  private undurable = false;
  /** The state's table is known to exist (made or seen in a committed batch). */
  private stateReady = false;
  /** Tables this session made in the transaction under way: given statistics once it commits. */
  private made: string[] = [];
  private readonly sql: Statements;
  /** The last batch's ids were all new to the table: the next goes straight in, unasked (copyNew). */
  private guessNew = false;
  /** The table this transaction's batch went into unasked, where a key may refuse it at COMMIT. */
  private unasked: string | undefined;

  constructor(
    private readonly conn: AsyncPgConnection,
    options: TableOptions,
    hooks: DatabaseHooks,
  ) {
    const layout = layoutFor(options);
    this.table = layout.main.name;
    this.describe = `${conn.where}, table ${this.table}`;
    this.replace = options.write === 'replace';
    this.state = stateTable(schemaOf(this.table));
    this.sql = new Statements(conn.client);
    this.tables = new TableSet(layout, postgresDialect, this.describe, hooks.note, (spec) =>
      this.replace ? `${spec.name}${REPLACING}` : spec.name,
    );
  }

  private get client(): Client {
    return this.conn.client;
  }

  private fail(error: unknown): Error {
    return postgresError(error, this.describe, this.conn.password);
  }

  async lockState(name: string): Promise<void> {
    try {
      const { rows } = await this.client.query<{ ok: boolean }>(TRY_LOCK, [name]);
      if (rows[0]?.ok === true) return;
      const holder = await this.client.query<{
        pid: number;
        application_name: string;
        backend_start: Date;
        client: string | null;
      }>(LOCK_HOLDER, [name]);
      throw new DatabaseLockError(
        `another run holds state ${name} in ${this.conn.where} ${describeHolder(holder.rows[0])}`,
        {
          hint: 'wait for it to finish, or stop it; the same command then continues from its state',
        },
      );
    } catch (error) {
      throw this.fail(error);
    }
  }

  async readState(name: string): Promise<string | undefined> {
    try {
      const { rows: found } = await this.client.query<{ t: string | null }>(
        'SELECT to_regclass($1)::text AS t',
        [this.state],
      );
      if (found[0]?.t == null) return undefined;
      const { rows } = await this.client.query<{ value: string }>(
        `SELECT value::text AS value FROM ${this.state} WHERE name = $1`,
        [name],
      );
      return rows[0]?.value;
    } catch (error) {
      throw this.fail(error);
    }
  }

  async writeBatch(records: readonly ApiRecord[], state?: StoredState): Promise<void> {
    await this.transaction(async () => {
      await this.prepare(records);
      if (records.length > 0) await this.load(records);
      if (state !== undefined) {
        // Sent with the COMMIT: one round trip.
        if (!this.stateReady) this.sql.defer(createState(this.state));
        this.sql.defer(
          upsertState(this.state, this.sql.literal(state.name), this.sql.literal(state.value)),
        );
      }
    });
    if (state !== undefined) this.stateReady = true;
  }

  async finish(): Promise<void> {
    if (this.replace) await this.swapIn();
    await this.durable();
  }

  /** `replace`: the twin tables, now whole, take the tables' names in one transaction. */
  private async swapIn(): Promise<void> {
    await this.transaction(async () => {
      await this.prepare([]);
      for (const spec of this.tables.specs) {
        for (const sql of swapStatements(spec.name, REPLACING)) this.sql.defer(sql);
      }
    });
    this.replaceDone = true;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // A run that ends in a failure keeps what it committed: durable too.
    await this.durable().catch(() => undefined);
    this.closed = true;
    // Ending the connection releases the advisory lock and drops the staging table.
    await this.client.end().catch(() => undefined);
  }

  /** Makes every commit so far durable (see ASYNC_COMMITS), when one may not be. */
  private async durable(): Promise<void> {
    if (!this.undurable) return;
    try {
      await this.client.query(DURABLE_POINT);
      this.undurable = false;
    } catch (error) {
      throw this.fail(error);
    }
  }

  private async transaction(work: () => Promise<void>): Promise<void> {
    if (this.closed) throw this.fail(new Error('the session is closed'));
    try {
      // BEGIN goes out with the transaction's first statement.
      this.sql.defer('BEGIN');
      this.unasked = undefined;
      await work();
      // With what still waits: the child tables' statements and COPYs, the state's row.
      await this.sql.send('COMMIT').catch(async (error: unknown) => {
        if (!this.refusedUnasked(error)) throw error;
        // Undone to its savepoint, the batch goes again, asked this time.
        this.guessNew = false;
        this.unasked = undefined;
        await this.client.query('ROLLBACK TO SAVEPOINT news_new');
        await work();
        await this.sql.send('COMMIT');
      });
      this.undurable = this.conn.asyncCommits;
    } catch (error) {
      this.made = [];
      this.guessNew = false;
      this.sql.drop();
      await this.client.query('ROLLBACK').catch(() => undefined);
      // DDL rolled back with it: what the session knew of the tables may be gone.
      this.tables.reset();
      this.stateReady = false;
      if (this.replace && !this.replaceDone) this.fresh = true;
      throw this.fail(error);
    }
    if (this.made.length > 0) await this.analyzeMade();
  }

  /**
   * Statistics for the tables this session made, once their first rows are
   * in. Without any, PostgreSQL guesses that `parent = ANY(ids)` matches a
   * share of a child table that grows with the ids, and a merge's DELETE of
   * child rows read whole child tables until autovacuum first analyzed
   * them: those DELETEs took 2.0 s, 5.6 s, then 9.7 s for each 20,000
   * articles loaded in pages of 100, as the tables grew (bench/README.md,
   * "Databases"); with statistics the parent index serves them, 0.3 s each
   * 20,000. An engine that has no ANALYZE loads as before.
   */
  private async analyzeMade(): Promise<void> {
    const names = this.made.map((name) => qualified(name)).join(', ');
    this.made = [];
    await this.client.query(`ANALYZE ${names}`).catch(() => undefined);
  }

  private async prepare(records: readonly ApiRecord[]): Promise<void> {
    if (this.fresh) {
      // A replace starts its twin tables empty, whatever a killed run left in them.
      if (this.replace) {
        for (const spec of this.tables.specs) {
          await this.sql.query(`DROP TABLE IF EXISTS ${qualified(spec.name + REPLACING)}`);
        }
      }
      this.fresh = false;
    }
    await this.tables.prepare(records, {
      columns: async (name) => {
        const { rows } = await this.sql.query<{ column_name: string; data_type: string }>(
          COLUMNS_QUERY,
          [schemaOf(name) ?? null, bareName(name)],
        );
        return existingColumns(rows);
      },
      create: async (spec: TableSpec, name: string, columns: readonly FieldDef[]) => {
        for (const sql of createTable(spec, name, columns)) await this.sql.query(sql);
        this.made.push(name);
      },
      add: async (name, column) => {
        await this.sql.query(addColumn(name, column));
      },
    });
  }

  private async load(records: readonly ApiRecord[]): Promise<void> {
    const { layout } = this.tables;
    const rows = layout.merge ? lastVersions(records) : records;
    await this.loadRows({
      ids: layout.merge ? rows.map((r) => r['id']).filter((id) => id != null) : [],
      main: (columns) => mainLines(rows, columns),
      child: (child, columns) => childLines(rows, child.list?.field as string, columns),
    });
  }

  /** A batch's rows (records, or COPY text made beforehand) into the tables. */
  private async loadRows(batch: BatchRows): Promise<void> {
    const { layout } = this.tables;
    const columns = this.tables.columnsOf(layout.main);
    const target = this.tables.target(layout.main);
    const { ids } = batch;
    const literal = idArray(ids);
    // All but the ids' question and a straight COPY wait and go out with the COMMIT (statements.ts).
    if (!layout.merge) {
      this.sql.deferCopy(copyInto(qualified(target), columns), batch.main(columns));
    } else if (!(await this.copyNew(target, columns, batch, literal))) {
      for (const sql of createStage(columns)) this.sql.defer(sql);
      this.sql.deferCopy(copyInto(STAGE_TABLE, columns), batch.main(columns));
      this.sql.defer(insertMain(target, columns, true));
    }
    if (layout.merge && layout.children.length > 0) {
      const names = layout.children.map((child) => this.tables.target(child));
      const parent = layout.kind.parentColumn;
      if (literal !== undefined) this.sql.defer(deleteChildren(names, parent, literal));
      else await this.sql.query(deleteChildren(names, parent), [ids]);
    }
    for (const child of layout.children) {
      const name = this.tables.target(child);
      const childColumns = this.tables.columnsOf(child);
      this.sql.deferCopy(copyInto(qualified(name), childColumns), batch.child(child, childColumns));
    }
  }

  /** A merge of a JSON Lines file, parsed and encoded by a worker thread (file-load.ts). */
  async loadFile(path: string, options: FileLoadOptions = {}): Promise<FileLoad> {
    return loadByWorker(path, this.tables.layout, options, (rows) =>
      this.transaction(async () => {
        // No field beyond the declared ones (the worker stopped before any): the columns are those.
        await this.prepare([]);
        await this.loadRows(rows);
      }),
    );
  }

  /**
   * A batch whose ids are all new to the table (a first load, the newest
   * pages) is COPYed straight into it: the rows a merge would write, without
   * writing them twice. Should another writer add one of the ids meanwhile,
   * the key refuses the COPY, which is undone to its savepoint, and the
   * batch merges through the staging table.
   *
   * Asking costs a round trip, and so does knowing at once that the COPY
   * went in. So once a batch's ids were all new, the next is not asked
   * about: its COPY goes out with the COMMIT, behind a savepoint, and in the
   * rare batch where the key refuses it (a page that reaches back into what
   * the table holds), transaction() goes back to the savepoint and the batch
   * goes again, asked.
   */
  private async copyNew(
    target: string,
    columns: readonly FieldDef[],
    batch: BatchRows,
    literal: string | undefined,
  ): Promise<boolean> {
    // Ids that need a parameter take the asked way: their DELETE goes out on its own, before the COMMIT.
    if (this.guessNew && literal !== undefined) {
      this.sql.defer('SAVEPOINT news_new');
      this.sql.deferCopy(copyInto(qualified(target), columns), batch.main(columns));
      this.sql.defer('RELEASE SAVEPOINT news_new');
      this.unasked = bareName(target);
      return true;
    }
    const { ids } = batch;
    // The savepoint goes out with the question (one round trip), and is released with what follows.
    this.sql.defer('SAVEPOINT news_new');
    const { rows: found } =
      literal !== undefined
        ? await this.sql.query<{ taken: boolean }>(idsTaken(target, literal))
        : await this.sql.query<{ taken: boolean }>(idsTaken(target), [ids]);
    if (found[0]?.taken !== false) {
      this.sql.defer('RELEASE SAVEPOINT news_new');
      return false;
    }
    try {
      await this.sql.copy(copyInto(qualified(target), columns), batch.main(columns));
    } catch (error) {
      if ((error as { code?: unknown }).code !== '23505') throw error;
      await this.sql.query('ROLLBACK TO SAVEPOINT news_new');
      this.sql.defer('RELEASE SAVEPOINT news_new');
      return false;
    }
    this.sql.defer('RELEASE SAVEPOINT news_new');
    this.guessNew = true;
    return true;
  }

  /** The key of the table a batch went into unasked refused it. */
  private refusedUnasked(error: unknown): boolean {
    const { code, table } = error as { code?: unknown; table?: unknown };
    return this.unasked !== undefined && code === '23505' && table === this.unasked;
  }
}

export const openPostgres: OpenDatabase = async (
  url: DatabaseUrl,
  options: TableOptions,
  hooks: DatabaseHooks,
) => {
  // The table name is checked before anything connects.
  const layout = layoutFor(options);
  const conn = await connectPostgres(url.url, url.redacted, layout.main.name);
  return new PostgresSession(await withAsyncCommits(conn), options, hooks);
};
