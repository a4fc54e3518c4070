/**
 * The one flattener behind every tabular format: a record and a column list
 * give a row of cells. The same function feeds csv, tsv, xlsx, parquet and
 * table, so their columns and values cannot drift apart.
 */
import type { Column } from './columns.js';
import type { ApiRecord } from './types.js';

/** What a tabular writer receives: text, number, boolean or empty. */
export type Cell = string | number | boolean | null;

export const LIST_SEPARATOR = '; ';

function at(record: ApiRecord, path: readonly string[]): unknown {
  let v: unknown = record;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** The raw value of a column's path (or of its first alternative that holds one). */
export function rawValue(record: ApiRecord, column: Column): unknown {
  const v = at(record, column.path);
  if ((v === undefined || v === null) && column.alternatives !== undefined) {
    for (const alt of column.alternatives) {
      const w = at(record, alt);
      if (w !== undefined && w !== null) return w;
    }
  }
  return v;
}

function scalar(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v);
}

function names(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const item of v) {
    if (typeof item === 'object' && item !== null) {
      const n = (item as Record<string, unknown>)['name'];
      if (typeof n === 'string') out.push(n);
    }
  }
  return out;
}

/** How a column's cell is made from the raw value at its path. */
function deriveFor(column: Column): (v: unknown) => Cell {
  switch (column.derive) {
    case 'value':
      return scalar;
    case 'json':
      return (v) => JSON.stringify(v);
    case 'names':
      return (v) => (Array.isArray(v) ? names(v).join(LIST_SEPARATOR) : scalar(v));
    case 'join':
      return (v) =>
        Array.isArray(v)
          ? v
              .map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x)))
              .join(LIST_SEPARATOR)
          : scalar(v);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A reader of one path, unrolled for the usual depths (1–3 keys). */
function pathReader(path: readonly string[]): (record: ApiRecord) => unknown {
  const [a, b, c] = path;
  if (path.length === 1) return (r) => r[a!];
  if (path.length === 2) {
    return (r) => {
      const x = r[a!];
      return isRecord(x) ? x[b!] : undefined;
    };
  }
  if (path.length === 3) {
    return (r) => {
      const x = r[a!];
      if (!isRecord(x)) return undefined;
      const y = x[b!];
      return isRecord(y) ? y[c!] : undefined;
    };
  }
  return (r) => at(r, path);
}

/** A compiled `cellOf(·, column)`: the path walk and the derivation chosen once. */
export function cellReader(column: Column): (record: ApiRecord) => Cell {
  const read = pathReader(column.path);
  const derive = deriveFor(column);
  const alternatives = column.alternatives?.map(pathReader);
  if (alternatives === undefined) {
    return (r) => {
      const v = read(r);
      return v === undefined || v === null ? null : derive(v);
    };
  }
  return (r) => {
    let v = read(r);
    for (let i = 0; (v === undefined || v === null) && i < alternatives.length; i++) {
      v = alternatives[i]!(r);
    }
    return v === undefined || v === null ? null : derive(v);
  };
}

/** One cell. Missing and null values (and those under a null parent) are null. */
export function cellOf(record: ApiRecord, column: Column): Cell {
  return cellReader(column)(record);
}

/** A compiled `rowOf(·, columns)`, for writers that flatten many records. */
export function rowReader(columns: readonly Column[]): (record: ApiRecord) => Cell[] {
  const readers = columns.map(cellReader);
  const n = readers.length;
  return (r) => {
    const row = new Array<Cell>(n);
    for (let i = 0; i < n; i++) row[i] = readers[i]!(r);
    return row;
  };
}

export function rowOf(record: ApiRecord, columns: readonly Column[]): Cell[] {
  return rowReader(columns)(record);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `--fields` for the JSON formats (json, jsonl, ndjson, xml): the selected
 * paths nested back into objects, so `source.domain` gives
 * `{"source":{"domain":…}}` and the record keeps the API's shape. Values stay
 * JSON (an array stays an array; `X.names` becomes an array of names). Where a
 * path cannot nest because its parent already holds a non-object (both
 * `entities` and `entities.names` chosen), the value goes under the flat
 * dotted key instead. Missing values are left out, as in the API.
 */
export function projectRecord(record: ApiRecord, columns: readonly Column[]): ApiRecord {
  const out: ApiRecord = {};
  for (const column of columns) {
    const raw = rawValue(record, column);
    if (raw === undefined) continue;
    const value = column.derive === 'names' && Array.isArray(raw) ? names(raw) : raw;
    const keys = column.name === column.path.join('.') ? column.path : column.name.split('.');
    let target: Record<string, unknown> = out;
    let nested = true;
    for (let i = 0; i < keys.length - 1; i++) {
      const key = keys[i]!;
      const next = target[key];
      if (next === undefined) {
        const created: Record<string, unknown> = {};
        target[key] = created;
        target = created;
      } else if (isPlainObject(next)) {
        target = next;
      } else {
        nested = false;
        break;
      }
    }
    const last = keys[keys.length - 1]!;
    if (nested && !(last in target)) target[last] = value;
    else out[column.name] = value;
  }
  return out;
}
