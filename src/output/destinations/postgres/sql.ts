/**
 * The SQL a PostgreSQL session runs. A batch's records arrive by COPY in a
 * temporary staging table shaped like the table (dropped at commit), and
 * one INSERT … ON CONFLICT (id) DO UPDATE moves them (a batch whose ids
 * are all new is COPYed straight into the table); each child table loses
 * the merged records' old rows in one DELETE and gets the new ones by COPY
 * (a batch holds each id once: the session keeps its last version). No
 * row-by-row statements.
 */
import type { FieldDef, SqlType } from '../database/fields.js';
import { bareName, ident, qualified, schemaOf } from '../database/names.js';
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

/** The staging table of the batch's records, for this transaction. */
export const STAGE = 'news_stage';

/**
 * Staged values stay uncompressed (STORAGE EXTERNAL): they are read once,
 * into the table, which compresses them; compressing them here too would
 * be work thrown away.
 */
export function createStage(columns: readonly FieldDef[]): string[] {
  const body = columns.map((c) => `${ident(c.name)} ${TYPE_NAMES[c.type]}`).join(', ');
  const wide = columns.filter((c) => c.type === 'text' || c.type === 'json');
  const sql = [`CREATE TEMP TABLE ${STAGE} (${body}) ON COMMIT DROP`];
  if (wide.length > 0) {
    const storage = wide.map((c) => `ALTER COLUMN ${ident(c.name)} SET STORAGE EXTERNAL`);
    sql.push(`ALTER TABLE pg_temp.${STAGE} ${storage.join(', ')}`);
  }
  return sql;
}

/** COPY into `table` (the stage's pg_temp name or a child table's qualified one). */
export function copyInto(table: string, columns: readonly FieldDef[]): string {
  return `COPY ${table} (${columns.map((c) => ident(c.name)).join(', ')}) FROM STDIN`;
}

export const STAGE_TABLE = `pg_temp.${STAGE}`;

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

export function insertMain(name: string, columns: readonly FieldDef[], merge: boolean): string {
  const list = columns.map((c) => ident(c.name)).join(', ');
  const sql = `INSERT INTO ${qualified(name)} (${list}) SELECT ${list} FROM ${STAGE_TABLE}`;
  if (!merge) return sql;
  const updates = columns
    .filter((c) => c.name !== 'id')
    .map((c) => `${ident(c.name)} = EXCLUDED.${ident(c.name)}`);
  return updates.length > 0
    ? `${sql} ON CONFLICT (${ident('id')}) DO UPDATE SET ${updates.join(', ')}`
    : `${sql} ON CONFLICT (${ident('id')}) DO NOTHING`;
}

/**
 * Before a merge writes records' child rows, their earlier ones go ($1: the
 * batch's ids), from every child table in one statement: one round trip a
 * batch, not one a table.
 */
export function deleteChildren(
  names: readonly string[],
  parentColumn: string,
  ids = '$1::bigint[]',
): string {
  const deletes = names.map(
    (name) => `DELETE FROM ${qualified(name)} WHERE ${ident(parentColumn)} = ANY(${ids})`,
  );
  if (deletes.length === 1) return deletes[0] as string;
  return `WITH ${deletes.map((d, i) => `d${i} AS (${d})`).join(', ')} SELECT 1`;
}

/**
 * Commits do not wait for the disk, each batch's: the run's last act is one
 * that does (DURABLE_POINT), which makes every earlier commit durable with
 * it. A commit is still atomic (rows and state together); what a server
 * crash could take is the last fraction of a second of batches, rows and
 * state alike, which the same command fetches again. Asked only of an
 * engine that can make the durable point (one row back when it took).
 */
export const ASYNC_COMMITS = `SELECT set_config('synchronous_commit', 'off', false)
  WHERE EXISTS (SELECT 1 FROM pg_catalog.pg_proc WHERE proname = 'pg_logical_emit_message')`;

/** LZ4 for the values the session compresses, where the server has it and no one chose: a row when it took. */
export const LZ4_VALUES = `SELECT set_config('default_toast_compression', 'lz4', false)
  FROM pg_catalog.pg_settings
  WHERE name = 'default_toast_compression' AND source = 'default' AND 'lz4' = ANY(enumvals)`;

/**
 * A commit that waits for the disk, and so for every commit before it. It
 * must write WAL to wait at all (a transaction that wrote nothing commits
 * without a flush): a transactional logical-decoding message, which any
 * role may write and decoders that do not know the prefix skip.
 */
export const DURABLE_POINT = `BEGIN; SET LOCAL synchronous_commit = on;
  SELECT pg_logical_emit_message(true, 'news', 'durable'); COMMIT`;

export function stateTable(schema: string | undefined): string {
  return schema === undefined ? ident('news_state') : `${ident(schema)}.${ident('news_state')}`;
}

export function createState(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (name text PRIMARY KEY, value jsonb NOT NULL, updated_at timestamp with time zone NOT NULL DEFAULT now())`;
}

/** Whether any of the ids ($1, or an array literal) is in the table already. */
export function idsTaken(table: string, ids = '$1::bigint[]'): string {
  return `SELECT EXISTS (SELECT 1 FROM ${qualified(table)} WHERE ${ident('id')} = ANY(${ids})) AS taken`;
}

/** The state's row ($1 name, $2 value; or the two as literals). */
export function upsertState(table: string, name = '$1', value = '$2'): string {
  return `INSERT INTO ${table} (name, value, updated_at) VALUES (${name}, ${value}::jsonb, now())
    ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`;
}

/** Advisory locks take two 32-bit keys: a fixed one for this tool ('news'), and the state's name hashed. */
export const LOCK_CLASS = 0x6e657773;
export const TRY_LOCK = `SELECT pg_try_advisory_lock(${LOCK_CLASS}, hashtext($1) & 2147483647) AS ok`;
export const LOCK_HOLDER = `SELECT a.pid, a.application_name, a.backend_start, a.client_addr::text AS client
  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ${LOCK_CLASS}
    AND l.objid = (hashtext($1) & 2147483647)::bigint::oid AND l.objsubid = 2 AND a.pid <> pg_backend_pid()`;

/** `since 2026-11-20T11:45:00.000Z (pid 1234 on builder-2)`, from the holder's application_name. */
export function describeHolder(
  row:
    | { pid: number; application_name: string; backend_start: Date; client: string | null }
    | undefined,
): string {
  if (row === undefined) return '(it ended a moment ago: try again)';
  const since =
    row.backend_start instanceof Date ? row.backend_start.toISOString() : 'an unknown time';
  const match = /^news (\d+)@(.+)$/.exec(row.application_name);
  if (match) return `since ${since} (pid ${match[1]} on ${match[2]})`;
  const from = row.client === null ? '' : ` from ${row.client}`;
  return `since ${since} (server process ${row.pid}${from}, "${row.application_name}")`;
}

/** `replace`'s swap of one table: its twin (the name and `suffix`) takes the name, its indexes theirs. */
export function swapStatements(name: string, suffix: string): string[] {
  const bare = bareName(name);
  const schema = schemaOf(name);
  const index = (n: string) => (schema === undefined ? ident(n) : `${ident(schema)}.${ident(n)}`);
  return [
    `DROP TABLE IF EXISTS ${qualified(name)}`,
    `ALTER TABLE ${qualified(`${name}${suffix}`)} RENAME TO ${ident(bare)}`,
    // Index names are schema-wide: the twin's become the table's, so the next replace can make them again.
    `ALTER INDEX IF EXISTS ${index(`${bare}${suffix}_pkey`)} RENAME TO ${ident(`${bare}_pkey`)}`,
    `ALTER INDEX IF EXISTS ${index(`${bare}${suffix}_parent`)} RENAME TO ${ident(`${bare}_parent`)}`,
  ];
}
