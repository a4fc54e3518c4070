/**
 * A fast path: a JSON Lines file loaded by DuckDB's own reader, for
 * `news convert FILE -o duckdb:…`. The appender path (load.ts) parses every
 * line in JavaScript and hands DuckDB its values one by one; here DuckDB
 * reads the file itself (`read_json`, typed by the tables' declared
 * columns) into temporary tables, and each child table's rows come from
 * its list column (`from_json`, `unnest`). The result is what the appender
 * path writes, table for table (test/db/duckdb-file-load.test.ts); the one
 * difference is a number's spelling inside a JSON column (or given for a
 * text column): DuckDB's `1.0` where JavaScript writes `1`, the same value.
 *
 * It declines, before anything is written, whatever it would not write
 * exactly as the appender path does: a field the tables lack (the plain
 * path adds a column and says so), a merge's record without an id, a line
 * DuckDB cannot read or a value it cannot cast (the plain path reports it
 * its own way), a list item's field its child table lacks. The caller then runs
 * the plain path. What it keeps of the plain path: tables made or checked
 * by the same code, the last version of an id wins, a merge replaces
 * existing ids with their child rows, and at most 10,000 records a
 * transaction.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import type { FieldDef } from '../database/fields.js';
import { ident, qualified } from '../database/names.js';
import type { TableSpec } from '../database/schema.js';
import type { TableSet } from '../database/tables.js';
import type { FileLoad } from '../database/types.js';
import { deleteChildren, duckdbDialect, duckdbText, mergeMain } from './sql.js';

/** Records a transaction, as `convert`'s batches (and the contract) allow at most. */
const RANGE = 10_000;

const LINES = 'temp.main.news_file';
const LAST = 'temp.main.news_file_last';
const childStage = (i: number) => `temp.main.news_file_child${i}`;

type Run = (sql: string, values?: DuckDBValue[]) => Promise<Record<string, unknown>[]>;

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

const names = (columns: readonly FieldDef[]) => columns.map((c) => ident(c.name)).join(', ');

/** Why the file does not go this way (the caller then takes the plain path). */
class Declined extends Error {}

export class FileLoader {
  constructor(
    private readonly run: Run,
    private readonly tables: TableSet,
    /** One transaction of the session: tables made ready, then `work`, then COMMIT. */
    private readonly transaction: (work: () => Promise<void>) => Promise<void>,
    /** Lines a transaction: RANGE (a test asks for fewer). */
    private readonly range = RANGE,
  ) {}

  /** `committed(lines)`: the lines of the file in the tables so far, after each transaction. */
  async load(
    path: string,
    committed?: (lines: number) => void,
    signal?: AbortSignal,
  ): Promise<FileLoad> {
    const { layout } = this.tables;
    const children = layout.children;
    let records: number;
    try {
      await this.run('SET preserve_insertion_order = true');
      try {
        records = await this.stage(path);
      } catch (error) {
        if (error instanceof Declined) return { declined: error.message };
        return { declined: `DuckDB could not read it: ${duckdbText(error)}` };
      }
      await this.run('SET preserve_insertion_order = false');
      const lines = await this.lastLine();
      for (let from = 0; from < lines; from += this.range) {
        signal?.throwIfAborted();
        await this.transaction(() => this.write(from, from + this.range));
        committed?.(Math.min(from + this.range, lines));
      }
    } finally {
      await this.drop(children.length);
    }
    return { records };
  }

  /**
   * Everything read, checked and typed into temporary tables, before any
   * transaction writes: the lines (numbered), each id's last version for a
   * merge, and each child table's rows. Any failure here declines.
   */
  private async stage(path: string): Promise<number> {
    const { layout } = this.tables;
    const main = layout.main.declared;
    // DuckDB reads these characters in a file name as a pattern.
    if (/[*?[{]/.test(path))
      throw new Declined('its name has a character DuckDB reads as a pattern');
    const file = literal(path);
    // Only fields the table is made with: the plain path adds a column for any other.
    const keys = await this.run(
      `SELECT DISTINCT unnest(json_keys(json)) AS k FROM read_ndjson_objects(${file})`,
    );
    const extra = unknownKeys(keys, main);
    if (extra !== undefined) throw new Declined(`field ${extra} is not a declared column`);
    const typed = main.map((c) => `${ident(c.name)}: ${literal(duckdbDialect.typeName(c.type))}`);
    await this.run(
      `CREATE OR REPLACE TEMP TABLE news_file AS SELECT row_number() OVER () AS news_line, * FROM read_json(${file}, format = 'newline_delimited', columns = {${typed.join(', ')}})`,
    );
    const counts = await this.run(
      `SELECT count(*) AS n, count(*) FILTER (WHERE id IS NULL) AS no_id, count(DISTINCT id) AS ids FROM ${LINES}`,
    );
    const { n, no_id, ids } = counts[0] as { n: bigint; no_id: bigint; ids: bigint };
    if (layout.merge && no_id > 0n) throw new Declined('a record has no id');
    // A merge writes each id once: its last version.
    if (layout.merge && ids < n) {
      await this.run(
        `CREATE OR REPLACE TEMP TABLE news_file_last AS SELECT * FROM ${LINES} QUALIFY row_number() OVER (PARTITION BY id ORDER BY news_line DESC) = 1`,
      );
    } else {
      // Every line is written: a view, not a copy.
      await this.run(`CREATE OR REPLACE TEMP VIEW news_file_last AS SELECT * FROM ${LINES}`);
    }
    for (const [i, child] of layout.children.entries()) await this.stageChild(i, child);
    return Number(n);
  }

  /**
   * A child table's rows from its list column: one per item that is an
   * object, at its position in the list (other items are skipped, as the
   * appender path skips them). Fields that are not text or JSON are read as
   * JSON and cast as SQL casts (one that does not fit fails, as in the
   * appender path, instead of becoming NULL).
   */
  private async stageChild(i: number, child: TableSpec): Promise<void> {
    const field = child.list?.field as string;
    const [parent, position, ...items] = child.declared;
    if (parent === undefined || position === undefined) return;
    const keys = await this.run(
      `SELECT DISTINCT unnest(flatten(json_keys(${ident(field)}, '$[*]'))) AS k FROM ${LAST}`,
    );
    const extra = unknownKeys(keys, items);
    if (extra !== undefined)
      throw new Declined(`field ${extra} of ${field} is not a declared column`);
    const shape = items.map(
      (c) => `${JSON.stringify(c.name)}: ${c.type === 'text' ? '"VARCHAR"' : '"JSON"'}`,
    );
    const values = items.map((c) => {
      const value = `item.${ident(c.name)}`;
      if (c.type === 'text' || c.type === 'json') return `${value} AS ${ident(c.name)}`;
      return `CAST(${value} ->> '$' AS ${duckdbDialect.typeName(c.type)}) AS ${ident(c.name)}`;
    });
    await this.run(
      `CREATE OR REPLACE TEMP TABLE ${ident(`news_file_child${i}`)} AS
       SELECT news_line, id AS ${ident(parent.name)}, pos AS ${ident(position.name)}, ${values.join(', ')}
       FROM (SELECT news_line, id, pos, from_json(item, ${literal(`{${shape.join(', ')}}`)}) AS item
             FROM (SELECT news_line, id, unnest(range(len(list))) AS pos, unnest(list) AS item
                   FROM (SELECT news_line, id, from_json(${ident(field)}, '["JSON"]') AS list
                         FROM ${LAST} WHERE ${ident(field)} IS NOT NULL))
             WHERE json_type(item) = 'OBJECT')`,
    );
  }

  private async lastLine(): Promise<number> {
    const rows = await this.run(`SELECT coalesce(max(news_line), 0) AS m FROM ${LAST}`);
    return Number(rows[0]?.['m'] ?? 0);
  }

  /** Lines (from, to] into the tables: one transaction. */
  private async write(from: number, to: number): Promise<void> {
    const { layout, target } = this.tables;
    const main = layout.main.declared;
    const range = `news_line > ${from} AND news_line <= ${to}`;
    const table = target(layout.main);
    let insert = `INSERT INTO ${qualified(table)} (${names(main)}) SELECT ${names(main)} FROM ${LAST} WHERE ${range}`;
    if (layout.merge) {
      const ids = `SELECT id FROM ${LAST} WHERE ${range}`;
      const taken = await this.run(
        `SELECT EXISTS (SELECT 1 FROM ${qualified(table)} WHERE id IN (${ids})) AS taken`,
      );
      if (taken[0]?.['taken'] !== false) {
        // Records written before: their child rows go, and their rows are replaced.
        for (const child of layout.children) {
          await this.run(deleteChildren(target(child), layout.kind.parentColumn, ids));
        }
        insert = mergeMain(table, main, `${LAST} WHERE ${range}`);
      }
    }
    await this.run(insert);
    for (const [i, child] of layout.children.entries()) {
      const columns = names(child.declared);
      await this.run(
        `INSERT INTO ${qualified(target(child))} (${columns}) SELECT ${columns} FROM ${childStage(i)} WHERE ${range}`,
      );
    }
  }

  private async drop(children: number): Promise<void> {
    await this.run(`DROP VIEW IF EXISTS ${LAST}`).catch(() => []);
    const tables = [LAST, LINES, ...Array.from({ length: children }, (_, i) => childStage(i))];
    for (const table of tables) await this.run(`DROP TABLE IF EXISTS ${table}`).catch(() => []);
    await this.run('SET preserve_insertion_order = false').catch(() => []);
  }
}

/** The first key that is not one of `columns`, or undefined. */
function unknownKeys(rows: Record<string, unknown>[], columns: readonly FieldDef[]) {
  const known = new Set(columns.map((c) => c.name));
  return rows.map((r) => r['k']).find((k) => k !== null && !known.has(String(k))) as
    | string
    | undefined;
}
