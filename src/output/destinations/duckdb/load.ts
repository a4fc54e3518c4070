/**
 * One batch into a DuckDB table and its child tables, inside the session's
 * transaction. Nothing is parsed on DuckDB's side: the records' values go
 * through appenders typed (rows.ts, values.ts).
 *
 * - A batch whose ids are all new to the table (a first load, the newest
 *   pages; every batch of an append) is appended straight into it: each
 *   row written once.
 * - A batch that shares ids with the table goes into a staging table of
 *   the same columns, and one `INSERT … ON CONFLICT (id) DO UPDATE` merges
 *   it.
 * - A merge first deletes the child rows of the batch's ids; the new child
 *   rows are appended straight into the child tables, record by record
 *   with the parent rows.
 */
import type {
  DuckDBAppender,
  DuckDBConnection,
  DuckDBListValue,
  DuckDBTimestampTZValue,
  DuckDBValue,
} from '@duckdb/node-api';
import type { ApiRecord } from '../../types.js';
import type { FieldDef } from '../database/fields.js';
import { lastVersions } from '../database/last-versions.js';
import { bareName, schemaOf } from '../database/names.js';
import type { TableSet } from '../database/tables.js';
import { ItemRows, RecordRows } from './rows.js';
import {
  CAST_STAMPS,
  CREATE_IDS,
  createStage,
  DROP_STAGE,
  deleteChildren,
  mergeMain,
  ORDERS_QUERY,
  takenIds,
} from './sql.js';
import { readStamps, Writers } from './values.js';

export type Duck = typeof import('@duckdb/node-api');

/** Closes each appender; the first failure is thrown once every one is closed or dropped. */
function closeAll(tables: readonly { appender: DuckDBAppender; close(): void }[]): void {
  let failure: unknown;
  for (const table of tables) {
    if (failure === undefined) {
      try {
        table.close();
      } catch (error) {
        failure = error;
      }
    } else drop(table.appender);
  }
  if (failure !== undefined) throw failure;
}

/** An appender whose rows are not to be written (the transaction is rolled back after it). */
function drop(appender: DuckDBAppender): void {
  try {
    appender.clear();
    appender.closeSync();
  } catch {
    // The error that stopped the batch is the one to tell.
  }
}

export class BatchLoader {
  /** Each target table's columns in their order, for the columns this session writes to it. */
  private readonly orders = new Map<string, { ours: readonly FieldDef[]; order: string[] }>();

  constructor(
    private readonly duck: Duck,
    private readonly connection: DuckDBConnection,
    private readonly tables: TableSet,
  ) {}

  private async run(sql: string, values?: DuckDBValue[]): Promise<Record<string, unknown>[]> {
    const reader = await this.connection.runAndReadAll(sql, values);
    return reader.getRowObjectsJS() as Record<string, unknown>[];
  }

  /** Forgets the tables' column orders (after a rollback, which may have undone columns). */
  reset(): void {
    this.orders.clear();
  }

  async load(records: readonly ApiRecord[]): Promise<void> {
    const { layout } = this.tables;
    // A merge writes each id once, its last version in the batch.
    const rows = layout.merge ? lastVersions(records) : records;
    const writers = await this.writers(rows);
    const main = this.tables.target(layout.main);
    const columns = this.tables.columnsOf(layout.main);
    let staged = false;
    if (layout.merge) {
      await this.run(CREATE_IDS);
      const id = writers.of('bigint');
      const ids = await this.connection.createAppender('news_ids', 'main', 'temp');
      try {
        for (const row of rows) {
          id(ids, row['id']);
          ids.endRow();
        }
        ids.closeSync();
      } catch (error) {
        drop(ids);
        const text = error instanceof Error ? error.message : String(error);
        throw new Error(`${main}, column id: ${text}`);
      }
      // The child rows of the batch's ids go, and whether the table has any of them: one round trip.
      const deletes = layout.children.map((c) =>
        deleteChildren(this.tables.target(c), layout.kind.parentColumn),
      );
      staged = (await this.run([...deletes, takenIds(main)].join(';\n')))[0]?.['taken'] !== false;
    }
    if (staged) await this.run(createStage(columns));
    // The tables of a layout share a schema (the children are named after the table).
    await this.readOrders([
      ...(staged ? [] : [{ name: main, ours: columns }]),
      ...layout.children.map((c) => ({
        name: this.tables.target(c),
        ours: this.tables.columnsOf(c),
      })),
    ]);
    const open: (RecordRows | ItemRows)[] = [];
    try {
      const parent = new RecordRows(
        staged
          ? await this.connection.createAppender('news_stage', 'main', 'temp')
          : await this.appender(main),
        main,
        staged ? columns.map((c) => c.name) : this.order(main),
        columns,
        writers,
      );
      open.push(parent);
      const children: { items: ItemRows; slot: number }[] = [];
      for (const child of layout.children) {
        const name = this.tables.target(child);
        const childColumns = this.tables.columnsOf(child);
        const field = child.list?.field as string;
        // The parent keeps the list whole in a JSON column: its text is put together there.
        const slot = parent.listSlot(field);
        const items = new ItemRows(
          await this.appender(name),
          name,
          this.order(name),
          childColumns,
          writers,
          field,
          slot !== -1,
        );
        open.push(items);
        children.push({ items, slot });
      }
      for (const row of rows) {
        for (const { items, slot } of children) {
          const text = items.add(row);
          if (slot !== -1) parent.texts[slot] = text;
        }
        parent.add(row);
      }
    } catch (error) {
      for (const table of open) drop(table.appender);
      throw error;
    }
    closeAll(open);
    if (staged) {
      await this.run(mergeMain(main, columns));
      await this.run(DROP_STAGE);
    }
  }

  private appender(name: string): Promise<DuckDBAppender> {
    return this.connection.createAppender(bareName(name), schemaOf(name) ?? null, null);
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
      if (names.length > 0) readStamps(this.tables.rowsOf(spec, rows), names, writers, odd);
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

  /**
   * Each table's columns in their order, read in one query for the tables
   * whose columns this session changed since it last read them.
   */
  private async readOrders(tables: readonly { name: string; ours: readonly FieldDef[] }[]) {
    const stale = tables.filter((t) => this.orders.get(t.name)?.ours !== t.ours);
    if (stale.length === 0) return;
    const first = stale[0]?.name as string;
    const rows = await this.run(ORDERS_QUERY, [
      schemaOf(first) ?? null,
      this.duck.listValue(stale.map((t) => bareName(t.name))),
    ]);
    for (const { name, ours } of stale) {
      const bare = bareName(name);
      const order = rows
        .filter((r) => r['table_name'] === bare)
        .map((r) => String(r['column_name']));
      this.orders.set(name, { ours, order });
    }
  }

  private order(name: string): string[] {
    return this.orders.get(name)?.order ?? [];
  }
}
