/**
 * The SQL a PostgreSQL session runs. A batch arrives as JSON documents in
 * a temporary staging table (one COPY), and the server does the rest in
 * set-wise statements: `jsonb_to_record` types each document's top-level
 * fields into the table's columns, `jsonb_array_elements … WITH ORDINALITY`
 * turns each list into child rows with their position. No row-by-row
 * statements, and no value is converted in JavaScript.
 */
import type { FieldDef, SqlType } from '../database/fields.js';
import { bareName, ident, qualified } from '../database/names.js';
import type { Dialect, ExistingColumn, TableSpec } from '../database/schema.js';

const TYPE_NAMES: Record<SqlType, string> = {
  text: 'text',
  bigint: 'bigint',
  double: 'double precision',
  boolean: 'boolean',
  timestamptz: 'timestamp with time zone',
  json: 'jsonb',
};

export const postgresDialect: Dialect = {
  typeName: (type) => TYPE_NAMES[type],
  typeOf(raw) {
    switch (raw) {
      case 'text':
      case 'character varying':
      case 'character':
        return 'text';
      case 'bigint':
        return 'bigint';
      case 'double precision':
      case 'numeric':
        return 'double';
      case 'boolean':
        return 'boolean';
      case 'timestamp with time zone':
        return 'timestamptz';
      case 'jsonb':
      case 'json':
        return 'json';
      default:
        return 'other';
    }
  },
};

/** The staging table of this connection: documents in arrival order, emptied at each commit. */
export const STAGE = 'pg_temp.news_stage';
export const CREATE_STAGE = `CREATE TEMP TABLE IF NOT EXISTS news_stage (n bigserial, doc jsonb NOT NULL) ON COMMIT DELETE ROWS`;
export const COPY_STAGE = `COPY ${STAGE} (doc) FROM STDIN`;

export const COLUMNS_QUERY = `SELECT column_name, data_type FROM information_schema.columns
  WHERE table_schema = COALESCE($1, current_schema()) AND table_name = $2`;

export function existingColumns(rows: { column_name: string; data_type: string }[]) {
  if (rows.length === 0) return undefined;
  const map = new Map<string, ExistingColumn>();
  for (const row of rows) {
    map.set(row.column_name, { raw: row.data_type, type: postgresDialect.typeOf(row.data_type) });
  }
  return map;
}

export function createTable(
  table: TableSpec,
  name: string,
  columns: readonly FieldDef[],
): string[] {
  const body = columns.map((c) => `${ident(c.name)} ${TYPE_NAMES[c.type]}`);
  if (table.keyed) body.push(`PRIMARY KEY (${ident('id')})`);
  const sql = [`CREATE TABLE IF NOT EXISTS ${qualified(name)} (${body.join(', ')})`];
  const parent = table.declared[0];
  if (table.list !== undefined && parent !== undefined) {
    // Merging deletes a record's child rows by parent id: without an index each batch reads the whole table.
    sql.push(
      `CREATE INDEX IF NOT EXISTS ${ident(`${bareName(name)}_parent`)} ON ${qualified(name)} (${ident(parent.name)})`,
    );
  }
  return sql;
}

export function addColumn(name: string, column: FieldDef): string {
  return `ALTER TABLE ${qualified(name)} ADD COLUMN IF NOT EXISTS ${ident(column.name)} ${TYPE_NAMES[column.type]}`;
}

const recordType = (columns: readonly FieldDef[]) =>
  columns.map((c) => `${ident(c.name)} ${TYPE_NAMES[c.type]}`).join(', ');

/** The staged documents a batch writes: each id once, its last version, when merging. */
function source(merge: boolean): string {
  return merge
    ? `(SELECT DISTINCT ON (doc->'id') doc FROM ${STAGE} ORDER BY doc->'id', n DESC)`
    : `(SELECT doc FROM ${STAGE} ORDER BY n)`;
}

export function insertMain(name: string, columns: readonly FieldDef[], merge: boolean): string {
  const list = columns.map((c) => ident(c.name)).join(', ');
  const values = columns.map((c) => `r.${ident(c.name)}`).join(', ');
  let sql = `INSERT INTO ${qualified(name)} (${list}) SELECT ${values} FROM ${source(merge)} s, jsonb_to_record(s.doc) AS r(${recordType(columns)})`;
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

/** Before a merge writes a record's child rows, its earlier ones go. */
export function deleteChildren(name: string, parentColumn: string): string {
  return `DELETE FROM ${qualified(name)} WHERE ${ident(parentColumn)} IN (SELECT DISTINCT (doc->>'id')::bigint FROM ${STAGE})`;
}

export function insertChildren(
  name: string,
  field: string,
  columns: readonly FieldDef[],
  merge: boolean,
): string {
  // The first two columns are the parent's id and the position, filled here.
  const items = columns.slice(2);
  const list = columns.map((c) => ident(c.name)).join(', ');
  const values = items.map((c) => `r.${ident(c.name)}`);
  const path = `s.doc->'${field.replace(/'/g, "''")}'`;
  return `INSERT INTO ${qualified(name)} (${list})
    SELECT (s.doc->>'id')::bigint, e.ord - 1${values.length > 0 ? `, ${values.join(', ')}` : ''}
    FROM ${source(merge)} s
    CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(${path}) = 'array' THEN ${path} ELSE '[]'::jsonb END) WITH ORDINALITY AS e(item, ord)
    CROSS JOIN LATERAL jsonb_to_record(CASE WHEN jsonb_typeof(e.item) = 'object' THEN e.item ELSE '{}'::jsonb END) AS r(${items.length > 0 ? recordType(items) : `${ident('_none')} text`})
    WHERE jsonb_typeof(e.item) = 'object'`;
}

export function stateTable(schema: string | undefined): string {
  return schema === undefined ? ident('news_state') : `${ident(schema)}.${ident('news_state')}`;
}

export function createState(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (name text PRIMARY KEY, value jsonb NOT NULL, updated_at timestamp with time zone NOT NULL DEFAULT now())`;
}

export function upsertState(table: string): string {
  return `INSERT INTO ${table} (name, value, updated_at) VALUES ($1, $2::jsonb, now())
    ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`;
}

/** Advisory locks take two 32-bit keys: a fixed one for this tool ('news'), and the state's name hashed. */
export const LOCK_CLASS = 0x6e657773;
export const TRY_LOCK = `SELECT pg_try_advisory_lock(${LOCK_CLASS}, hashtext($1) & 2147483647) AS ok`;
export const LOCK_HOLDER = `SELECT a.pid, a.application_name, a.backend_start, a.client_addr::text AS client
  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ${LOCK_CLASS}
    AND l.objid = (hashtext($1) & 2147483647)::bigint::oid AND l.objsubid = 2 AND a.pid <> pg_backend_pid()`;
