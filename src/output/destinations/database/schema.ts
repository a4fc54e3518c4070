/**
 * The tables a destination writes and how an existing table is reconciled
 * with them, the same for both engines: the main table, one child table per
 * list of the kind, the columns each should have for a batch, and what to
 * create, add or refuse. Every check happens before any DDL, so a refused
 * table is left as it was.
 */
import { UsageError } from '../../../api/errors.js';
import type { ApiRecord } from '../../types.js';
import { SchemaConflictError } from './errors.js';
import {
  type ChildList,
  compatible,
  type FieldDef,
  inferType,
  KIND_TABLES,
  type KindTable,
  type SqlType,
} from './fields.js';
import type { TableOptions } from './types.js';

/** How an engine names types and identifiers. */
export interface Dialect {
  typeName(type: SqlType): string;
  /** The engine's name of an existing column's type, read back as ours ('other' when none fits). */
  typeOf(raw: string): SqlType | 'other';
}

export interface TableSpec {
  /** `schema.table` or `table`, as the user wrote it (unquoted). */
  readonly name: string;
  /** Set for a child table: the parent's list it holds. */
  readonly list?: ChildList;
  readonly declared: readonly FieldDef[];
  /** Merge on `id` (main table of a keyed kind). */
  readonly keyed: boolean;
}

export interface Layout {
  readonly kind: KindTable;
  readonly main: TableSpec;
  readonly children: readonly TableSpec[];
  /** Merge by id: keyed kind and `--write merge` (or `replace`, which merges into its new table). */
  readonly merge: boolean;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** PostgreSQL cuts names at 63 bytes; room is kept for `__locations_mentioned` and `__replacing`. */
const MAX_TABLE = 30;

/** The tables of a session, from the kind and `--table`. */
export function layoutFor(options: TableOptions): Layout {
  const kind = KIND_TABLES[options.kind];
  const name = options.table ?? kind.defaultTable;
  if (name === undefined) {
    throw new UsageError('these records have no table of their own: name one with --table NAME', {
      hint: 'e.g. --table trends (columns are made from the records, rows appended)',
    });
  }
  const parts = name.split('.');
  if (parts.length > 2 || !parts.every((p) => IDENTIFIER.test(p))) {
    throw new UsageError(`--table ${name}: not a table name`, {
      hint: 'letters, digits and _ (not first), optionally schema.table',
    });
  }
  if ((parts.at(-1) as string).length > MAX_TABLE) {
    throw new UsageError(`--table ${name}: at most ${MAX_TABLE} characters`, {
      hint: 'child tables add their list to the name, and PostgreSQL cuts names at 63',
    });
  }
  // Appending keeps every version, so a table it creates has no key to refuse the second.
  const keyed = kind.keyed && options.write !== 'append';
  return {
    kind,
    main: { name, declared: kind.fields, keyed },
    children: kind.children.map((list) => ({
      name: `${name}__${list.field}`,
      list,
      declared: [
        { name: kind.parentColumn, type: 'bigint' },
        { name: 'position', type: 'bigint' },
        ...list.columns,
      ],
      keyed: false,
    })),
    merge: keyed,
  };
}

/** The items a batch carries into a child table (objects only). */
export function listItems(records: readonly ApiRecord[], field: string): ApiRecord[] {
  const items: ApiRecord[] = [];
  for (const record of records) {
    const list = record[field];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
        items.push(item as ApiRecord);
      }
    }
  }
  return items;
}

/**
 * The columns `table` needs for `rows`: its declared ones, then each field
 * the rows carry that is not declared, typed from its values (a field whose
 * values are all null waits for a batch with a value).
 */
export function wantedColumns(table: TableSpec, rows: readonly ApiRecord[]): FieldDef[] {
  const columns = [...table.declared];
  const known = new Set(columns.map((c) => c.name));
  const extra = new Map<string, unknown[]>();
  for (const row of rows) {
    for (const key in row) {
      if (known.has(key)) continue;
      const values = extra.get(key);
      if (values === undefined) extra.set(key, [row[key]]);
      else values.push(row[key]);
    }
  }
  for (const [name, values] of extra) {
    // A name that is not an identifier would need quoting in every query a user writes.
    if (!IDENTIFIER.test(name)) continue;
    const type = inferType(name, values);
    if (type !== undefined) columns.push({ name, type });
  }
  return columns;
}

export interface ExistingColumn {
  readonly raw: string;
  readonly type: SqlType | 'other';
}

export interface TableChange {
  readonly table: TableSpec;
  /** All columns of a table to create, or undefined when it exists. */
  readonly create: readonly FieldDef[] | undefined;
  /** Columns to add to an existing table. */
  readonly add: readonly FieldDef[];
}

/**
 * What to do to `table` so that it holds `wanted`; throws, naming the table,
 * the column and both types, when an existing column cannot take its values.
 */
export function reconcile(
  table: TableSpec,
  wanted: readonly FieldDef[],
  existing: ReadonlyMap<string, ExistingColumn> | undefined,
  dialect: Dialect,
  where: string,
): TableChange {
  if (existing === undefined) return { table, create: wanted, add: [] };
  const add: FieldDef[] = [];
  for (const column of wanted) {
    const have = existing.get(column.name);
    if (have === undefined) add.push(column);
    else if (!compatible(column.type, have.type)) {
      throw new SchemaConflictError(
        `${where}: table ${table.name} has column ${column.name} of type ${have.raw}, but its values are ${dialect.typeName(column.type)}`,
        {
          hint: `alter or drop the column, or write to another table with --table NAME`,
        },
      );
    }
  }
  return { table, create: undefined, add };
}
