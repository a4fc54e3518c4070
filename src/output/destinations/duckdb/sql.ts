/**
 * The SQL a DuckDB session runs. The rows themselves arrive through the
 * appender (rows.ts); SQL makes the tables, checks which ids a batch
 * shares with its table, merges a batch that does through a staging table
 * (`INSERT … ON CONFLICT`), deletes the merged records' child rows, and
 * keeps the state; and DuckDB's messages are cut to their first line here.
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

/** DuckDB's message, first line (the rest is a caret under the SQL, which is ours). */
export function duckdbText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? text).trim();
}

/** A merge's rows, typed as the table's columns (made again for each batch that needs it). */
const STAGE = 'temp.main.news_stage';
/** The ids of a batch: which its table already has, and whose child rows a merge replaces. */
const IDS = 'temp.main.news_ids';
export const CREATE_IDS = `CREATE OR REPLACE TEMP TABLE news_ids (id BIGINT)`;

/** A table's columns in their order (duckdb_columns(): a few times quicker than information_schema). */
export const COLUMNS_QUERY = `SELECT column_name, data_type FROM duckdb_columns()
  WHERE database_name = current_database() AND schema_name = COALESCE($1, current_schema()) AND table_name = $2
  ORDER BY column_index`;

/** The columns of several tables of a schema (`$2`, a list of names), each table's in their order. */
export const ORDERS_QUERY = `SELECT table_name, column_name FROM duckdb_columns()
  WHERE database_name = current_database() AND schema_name = COALESCE($1, current_schema())
    AND list_contains($2::VARCHAR[], table_name)
  ORDER BY table_name, column_index`;

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

export function createStage(columns: readonly FieldDef[]): string {
  const body = columns.map((c) => `${ident(c.name)} ${TYPE_NAMES[c.type]}`);
  return `CREATE OR REPLACE TEMP TABLE news_stage (${body.join(', ')})`;
}

export const DROP_STAGE = `DROP TABLE IF EXISTS ${STAGE}`;

/** Whether any id of the batch is in the table already (false: the batch can be appended as it is). */
export function takenIds(name: string): string {
  return `SELECT EXISTS (SELECT 1 FROM ${qualified(name)} WHERE ${ident('id')} IN (SELECT id FROM ${IDS})) AS taken`;
}

/**
 * The staged rows (or those of `source`, a query's FROM and WHERE) into the
 * table, each replacing the row of its id.
 */
export function mergeMain(
  name: string,
  columns: readonly FieldDef[],
  source: string = STAGE,
): string {
  const list = columns.map((c) => ident(c.name)).join(', ');
  const updates = columns
    .filter((c) => c.name !== 'id')
    .map((c) => `${ident(c.name)} = EXCLUDED.${ident(c.name)}`);
  const action = updates.length > 0 ? `DO UPDATE SET ${updates.join(', ')}` : 'DO NOTHING';
  return `INSERT INTO ${qualified(name)} (${list}) SELECT ${list} FROM ${source} ON CONFLICT (${ident('id')}) ${action}`;
}

/** The child rows of the batch's ids (or of those `ids`, a query), before a merge writes them again. */
export function deleteChildren(
  name: string,
  parentColumn: string,
  ids = `SELECT id FROM ${IDS}`,
): string {
  return `DELETE FROM ${qualified(name)} WHERE ${ident(parentColumn)} IN (${ids})`;
}

/** DuckDB's reading of timestamps given as text (`$1`, a list), in their order; one it cannot read fails. */
export const CAST_STAMPS = 'SELECT list_transform($1::VARCHAR[], s -> s::TIMESTAMPTZ) AS t';

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
