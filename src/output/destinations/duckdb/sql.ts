/**
 * The SQL a DuckDB session runs. A batch arrives through the appender as
 * JSON documents in a temporary staging table, and DuckDB types them: one
 * `json_extract` per document with every column's path (the document is
 * parsed once), each value cast to its column's type (a value that does
 * not fit fails the batch rather than becoming NULL), and `json_each` for
 * the lists' child rows.
 */
import type { FieldDef, SqlType } from '../database/fields.js';
import type { Dialect, ExistingColumn, TableSpec } from '../database/schema.js';
import { ident, qualified } from '../database/names.js';

const TYPE_NAMES: Record<SqlType, string> = {
  text: 'VARCHAR',
  bigint: 'BIGINT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  timestamptz: 'TIMESTAMPTZ',
  json: 'JSON',
};

export const duckdbDialect: Dialect = {
  typeName: (type) => TYPE_NAMES[type],
  typeOf(raw) {
    const type = raw.toUpperCase();
    if (type === 'VARCHAR' || type === 'TEXT') return 'text';
    if (type === 'BIGINT') return 'bigint';
    if (type === 'DOUBLE' || type.startsWith('DECIMAL')) return 'double';
    if (type === 'BOOLEAN') return 'boolean';
    if (type === 'TIMESTAMP WITH TIME ZONE' || type === 'TIMESTAMPTZ') return 'timestamptz';
    if (type === 'JSON') return 'json';
    return 'other';
  },
};

/**
 * The staging table: documents as text in arrival order, with the id the
 * appender read from the record (so that picking each id's last version
 * parses nothing). `news_values` then holds each document's columns,
 * extracted in one parse; the table and its child tables are filled from it.
 */
export const STAGE = 'temp.main.news_stage';
export const VALUES = 'temp.main.news_values';
export const CREATE_STAGE =
  'CREATE TEMP TABLE IF NOT EXISTS news_stage (n BIGINT, id BIGINT, doc VARCHAR)';

export const COLUMNS_QUERY = `SELECT column_name, data_type FROM information_schema.columns
  WHERE table_catalog = current_database() AND table_schema = COALESCE($1, current_schema()) AND table_name = $2`;

export function existingColumns(rows: Record<string, unknown>[]) {
  if (rows.length === 0) return undefined;
  const map = new Map<string, ExistingColumn>();
  for (const row of rows) {
    const raw = String(row['data_type']);
    map.set(String(row['column_name']), { raw, type: duckdbDialect.typeOf(raw) });
  }
  return map;
}

export function createTable(table: TableSpec, name: string, columns: readonly FieldDef[]): string {
  const body = columns.map((c) => `${ident(c.name)} ${TYPE_NAMES[c.type]}`);
  if (table.keyed) body.push(`PRIMARY KEY (${ident('id')})`);
  return `CREATE TABLE IF NOT EXISTS ${qualified(name)} (${body.join(', ')})`;
}

export function addColumn(name: string, column: FieldDef): string {
  return `ALTER TABLE ${qualified(name)} ADD COLUMN IF NOT EXISTS ${ident(column.name)} ${TYPE_NAMES[column.type]}`;
}

/** One value of the extracted list `v` (or its column `v1`, `v2`, …), as its column's type. */
function cast(column: FieldDef, i: number, split = false): string {
  const at = split ? `v${i + 1}` : `v[${i + 1}]`;
  if (column.type === 'json') return `CASE WHEN json_type(${at}) = 'NULL' THEN NULL ELSE ${at} END`;
  if (column.type === 'text') return `(${at}->>'$')`;
  return `(${at}->>'$')::${TYPE_NAMES[column.type]}`;
}

const paths = (columns: readonly FieldDef[]) =>
  `[${columns.map((c) => `'$."${c.name.replace(/'/g, "''")}"'`).join(', ')}]`;

/**
 * Parses each staged document once into the list `v` of its columns'
 * JSON values (each id's last version only, when merging).
 */
export function extractValues(columns: readonly FieldDef[], merge: boolean): string {
  const source = merge
    ? `(SELECT DISTINCT ON (id) id, doc FROM ${STAGE} ORDER BY id, n DESC)`
    : `(SELECT id, doc FROM ${STAGE} ORDER BY n)`;
  // One column each (not the list): a child table's statement then reads its list's column only.
  const split = columns.map((_, i) => `v[${i + 1}] AS v${i + 1}`).join(', ');
  return `CREATE OR REPLACE TEMP TABLE news_values AS SELECT id, ${split} FROM (SELECT s.id, json_extract(s.doc, ${paths(columns)}) AS v FROM ${source} s)`;
}

export function insertMain(name: string, columns: readonly FieldDef[], merge: boolean): string {
  const list = columns.map((c) => ident(c.name)).join(', ');
  const values = columns.map((c, i) => cast(c, i, true)).join(', ');
  let sql = `INSERT INTO ${qualified(name)} (${list}) SELECT ${values} FROM ${VALUES}`;
  if (merge) {
    const updates = columns
      .filter((c) => c.name !== 'id')
      .map((c) => `${ident(c.name)} = EXCLUDED.${ident(c.name)}`);
    sql +=
      updates.length > 0
        ? ` ON CONFLICT (${ident('id')}) DO UPDATE SET ${updates.join(', ')}`
        : ` ON CONFLICT (${ident('id')}) DO NOTHING`;
  }
  return sql;
}

export function deleteChildren(name: string, parentColumn: string): string {
  return `DELETE FROM ${qualified(name)} WHERE ${ident(parentColumn)} IN (SELECT id FROM ${VALUES})`;
}

/**
 * A list's child rows, from its JSON value in `news_values` (`index`: its
 * place among the main table's columns), a small text parsed once more.
 */
export function insertChildren(name: string, index: number, columns: readonly FieldDef[]): string {
  // The first two columns are the parent's id and the position, filled here.
  const items = columns.slice(2);
  const list = columns.map((c) => ident(c.name)).join(', ');
  const values = items.map((c, i) => cast(c, i));
  const extract = items.length > 0 ? `, json_extract(e.value, ${paths(items)}) AS v` : '';
  return `INSERT INTO ${qualified(name)} (${list})
    SELECT parent, position${values.length > 0 ? `, ${values.join(', ')}` : ''}
    FROM (SELECT s.id AS parent, e.key::BIGINT AS position${extract}
      FROM ${VALUES} s, json_each(s.v${index + 1}) e
      WHERE json_type(e.value) = 'OBJECT')`;
}

export function stateTable(schema: string | undefined): string {
  return schema === undefined ? ident('news_state') : `${ident(schema)}.${ident('news_state')}`;
}

export function createState(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (name VARCHAR PRIMARY KEY, value JSON NOT NULL, updated_at TIMESTAMPTZ NOT NULL)`;
}

export function upsertState(table: string): string {
  return `INSERT INTO ${table} (name, value, updated_at) VALUES ($1, $2::JSON, now())
    ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`;
}
