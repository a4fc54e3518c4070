/**
 * A PostgreSQL destination: one connection for the run, which holds the
 * state's advisory lock for as long as it lives. Each batch is one
 * transaction: the tables made ready, the records COPYed into a staging
 * table, one INSERT … ON CONFLICT into the table and one per child table,
 * the state's row; then COMMIT. A failure anywhere rolls all of it back.
 */
import type { Client } from 'pg';
import type { ApiRecord } from '../../types.js';
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
  withLz4Values,
} from './connect.js';
import { type BatchRows, childLines, mainLines } from './copy.js';
import { NewIds } from './new-ids.js';
import { loadByWorker } from './file-load.js';
import {
  addColumn,
  COLUMNS_QUERY,
  copyInto,
  createStage,
  createState,
  createTable,
  deleteChildren,
  DURABLE_POINT,
  existingColumns,
  insertMain,
  postgresDialect,
  stateTable,
  STAGE_TABLE,
  swapStatements,
  upsertState,
} from './sql.js';
import { lockState, readState } from './state.js';
import { analyzeMade } from './statistics.js';
import { idArray, Statements } from './statements.js';
import { newTransaction, type Transaction } from './transaction.js';

/** The suffix of the tables a `replace` run fills before finish() swaps them in. */
const REPLACING = '__new';

class PostgresSession implements DatabaseSession {
  readonly engine = 'postgres' as const;
  readonly writesAhead = true;
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
  private readonly sql: Statements;
  private readonly newIds: NewIds;
  /** The last transaction's outcome: the next one sent ahead of it learns from it what became of its own. */
  private previous: Promise<void> = Promise.resolve();
  private last: Transaction | undefined;

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
    this.newIds = new NewIds(this.sql);
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
    await lockState(this.client, name, this.conn.where).catch((error: unknown) => {
      throw this.fail(error);
    });
  }

  async readState(name: string): Promise<string | undefined> {
    return readState(this.client, this.state, name).catch((error: unknown) => {
      throw this.fail(error);
    });
  }

  /**
   * Called again before the last batch is in, the batch goes out ahead of
   * its answer (transaction()), unless it carries the state: its row must
   * commit only with every batch before it.
   */
  async writeBatch(records: readonly ApiRecord[], state?: StoredState): Promise<void> {
    await this.transaction(state === undefined, async (tx) => {
      await this.prepare(records, tx);
      if (records.length > 0) await this.load(records, tx);
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
    await this.transaction(false, async (tx) => {
      await this.prepare([], tx);
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

  /**
   * One transaction, sent as few messages as it can (statements.ts). With
   * `ahead`, it does not wait for the last one's answer: its statements are
   * made meanwhile and its last message goes right behind the last one's
   * (`--all` of 20k articles: 5–8 % less time; bench/README.md, "`--all`
   * into PostgreSQL: the next batch ahead"). It runs only where the last one
   * left the connection well: after a failure there (a key refusing a batch
   * sent unasked, which that transaction then sends again), it failed with
   * SQLSTATE 25P02, and goes again once the last one is done. Nothing of a
   * transaction is undone until the last one is over.
   */
  private async transaction(
    ahead: boolean,
    work: (tx: Transaction) => Promise<void>,
  ): Promise<void> {
    if (this.closed) throw this.fail(new Error('the session is closed'));
    const previous = this.previous;
    const before = this.last;
    const tx = newTransaction();
    this.last = tx;
    // Ahead only of a last one not over yet: after one its caller has, this is a fresh start.
    const run = this.run(ahead && before?.over === false, work, previous, before, tx);
    this.previous = run;
    // However it ends, the next one waits no longer for it to be past its statements.
    run.catch(() => undefined).finally(() => tx.leaveMaking());
    try {
      await run;
    } finally {
      tx.over = true;
    }
  }

  private async run(
    ahead: boolean,
    work: (tx: Transaction) => Promise<void>,
    previous: Promise<void>,
    before: Transaction | undefined,
    tx: Transaction,
  ): Promise<void> {
    // Its caller has the last one's failure, if any, from its own await.
    if (!ahead) await previous.catch(() => undefined);
    // The last one takes the statements first.
    if (ahead) await before?.beyondMaking;
    let release = await this.sql.take();
    if (ahead && before?.status === 'failed') {
      // The last one failed and is being dealt with: its outcome first, then this one on its own.
      release();
      const failure = await failureOf(previous);
      if (failure !== undefined) {
        tx.status = 'failed';
        throw failure;
      }
      return this.run(false, work, Promise.resolve(), undefined, tx);
    }
    // Ahead only of a last one on its way; after one already in, there is nothing to go ahead of.
    const sendAhead = ahead && before?.status === 'sent';
    let holding = true;
    const hand = () => {
      holding = false;
      release();
    };
    tx.status = 'making';
    tx.made = [];
    tx.unasked = undefined;
    try {
      // BEGIN goes out with the transaction's first statement.
      this.sql.defer('BEGIN');
      await work(tx);
      // With what still waits: the child tables' statements and COPYs, the state's row.
      const commit = sendAhead ? this.sql.sendAhead('COMMIT') : this.sql.send('COMMIT');
      tx.status = 'sent';
      tx.leaveMaking();
      // Its message is queued: whatever another transaction asks now goes after it.
      hand();
      await commit.catch(async (error: unknown) => {
        tx.status = 'failed';
        if (!NewIds.refused(error, tx)) throw error;
        // Undone to its savepoint, the batch goes again, asked this time.
        release = await this.sql.take();
        holding = true;
        this.newIds.guess = false;
        tx.unasked = undefined;
        await this.client.query('ROLLBACK TO SAVEPOINT news_new');
        await work(tx);
        await this.sql.send('COMMIT');
        hand();
      });
      tx.status = 'done';
      this.undurable = this.conn.asyncCommits;
    } catch (error) {
      // Whoever takes the statements next waits for how this ends.
      tx.status = 'failed';
      tx.leaveMaking();
      // What this one made and did not send goes.
      if (holding) {
        this.sql.drop();
        hand();
      }
      const lastFailure = await failureOf(previous);
      // A transaction making its statements meanwhile (sent ahead of this one) finishes first.
      const cleanup = await this.sql.take();
      try {
        this.newIds.guess = false;
        await this.client.query('ROLLBACK').catch(() => undefined);
        // DDL rolled back with it: what the session knew of the tables may be gone.
        this.tables.reset();
        this.stateReady = false;
        if (this.replace && !this.replaceDone) this.fresh = true;
      } finally {
        cleanup();
      }
      if (lastFailure !== undefined) throw this.fail(lastFailure);
      // Sent ahead into the last one's failed transaction, which then went well: now on its own.
      if (sendAhead && (error as { code?: unknown }).code === '25P02') {
        return this.run(false, work, Promise.resolve(), undefined, tx);
      }
      throw this.fail(error);
    }
    if (tx.made.length > 0) await analyzeMade(this.client, tx.made);
  }

  private async prepare(records: readonly ApiRecord[], tx: Transaction): Promise<void> {
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
        tx.made.push(name);
      },
      add: async (name, column) => {
        await this.sql.query(addColumn(name, column));
      },
    });
  }

  private async load(records: readonly ApiRecord[], tx: Transaction): Promise<void> {
    const { layout } = this.tables;
    const rows = layout.merge ? lastVersions(records) : records;
    await this.loadRows(tx, {
      ids: layout.merge ? rows.map((r) => r['id']).filter((id) => id != null) : [],
      main: (columns) => mainLines(rows, columns),
      child: (child, columns) => childLines(rows, child.list?.field as string, columns),
    });
  }

  /** A batch's rows (records, or COPY text made beforehand) into the tables. */
  private async loadRows(tx: Transaction, batch: BatchRows): Promise<void> {
    const { layout } = this.tables;
    const columns = this.tables.columnsOf(layout.main);
    const target = this.tables.target(layout.main);
    const { ids } = batch;
    const literal = idArray(ids);
    // All but the ids' question and a straight COPY wait and go out with the COMMIT (statements.ts).
    if (!layout.merge) {
      this.sql.deferCopy(copyInto(qualified(target), columns), batch.main(columns));
    } else if (!(await this.newIds.copy(tx, target, columns, batch, literal))) {
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
      this.transaction(false, async (tx) => {
        // No field beyond the declared ones (the worker stopped before any): the columns are those.
        await this.prepare([], tx);
        await this.loadRows(tx, rows);
      }),
    );
  }
}

/** The last transaction's failure once it is over; undefined when it went in. */
function failureOf(previous: Promise<void>): Promise<unknown> {
  return previous.then(
    () => undefined,
    (failure: unknown) => failure ?? new Error('the batch before failed'),
  );
}

export const openPostgres: OpenDatabase = async (
  url: DatabaseUrl,
  options: TableOptions,
  hooks: DatabaseHooks,
) => {
  // The table name is checked before anything connects.
  const layout = layoutFor(options);
  const conn = await connectPostgres(url.url, url.redacted, layout.main.name);
  await withLz4Values(conn);
  return new PostgresSession(await withAsyncCommits(conn), options, hooks);
};
