/**
 * The values of the row group being filled, column by column, in typed
 * arrays: numbers in a Float64Array (NaN for null), flags in a Uint8Array,
 * text as UTF-8 in the group's blocks (utf8-blocks.ts), known by handle. The
 * page writer (parquet-pages.ts) reads them from there; no JS value is made
 * per cell. Held as JS values for the life of the group, about 45 objects a
 * row (BigInts, boxed doubles, strings) were copied by every young-generation
 * collection of a convert worker until promoted.
 *
 * A cell comes from a record (`add`, with the type rules below) or from
 * convert's byte reader (parquet-bytes.ts), which checks the value itself
 * and pushes it. `truncate` takes back a row the byte reader gave up on.
 */
import type { ColumnType } from '../columns.js';
import type { Cell } from '../flatten.js';
import type { Utf8Blocks } from './utf8-blocks.js';

const FIRST_CAPACITY = 256;

function grown<T extends Float64Array | Uint8Array | Int32Array>(array: T, rows: number): T {
  if (rows < array.length) return array;
  const bigger = new (array.constructor as new (n: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** A number of the cell, or NaN (never a real value: the column holds finite numbers only). */
function numberOf(c: Cell): number {
  return typeof c === 'number' ? c : typeof c === 'string' ? Number(c) : Number.NaN;
}

/** int, float and timestamp columns: a Float64Array, NaN for null. */
export class NumberColumn {
  values = new Float64Array(FIRST_CAPACITY);
  rows = 0;
  private readonly fits: (n: number) => boolean;
  private readonly read: (c: Cell) => number;

  constructor(readonly type: 'int' | 'float' | 'timestamp') {
    this.fits =
      type === 'float'
        ? Number.isFinite
        : type === 'int'
          ? Number.isSafeInteger
          : (n: number) => Number.isFinite(n);
    this.read =
      type === 'timestamp'
        ? (c: Cell) => (typeof c === 'string' ? Date.parse(c) : Number.NaN)
        : numberOf;
  }

  /** A record's cell; false when it does not fit the column's type (it is then null). */
  add(c: Cell): boolean {
    if (c === null) {
      this.push(Number.NaN);
      return true;
    }
    const n = this.read(c);
    const ok = this.fits(n);
    this.push(ok ? n : Number.NaN);
    return ok;
  }

  /** A value known to fit (or NaN for null). */
  push(n: number): void {
    this.values = grown(this.values, this.rows);
    this.values[this.rows++] = n;
  }

  truncate(rows: number): void {
    this.rows = rows;
  }
}

export const FALSE = 0;
export const TRUE = 1;
export const NULL_FLAG = 2;

export class FlagColumn {
  readonly type = 'bool';
  values = new Uint8Array(FIRST_CAPACITY);
  rows = 0;

  add(c: Cell): boolean {
    this.push(c === true ? TRUE : c === false ? FALSE : NULL_FLAG);
    return c === null || typeof c === 'boolean';
  }

  push(flag: number): void {
    this.values = grown(this.values, this.rows);
    this.values[this.rows++] = flag;
  }

  truncate(rows: number): void {
    this.rows = rows;
  }
}

/** string and json columns: handles into the group's UTF-8 blocks, -1 for null. */
export class TextColumn {
  values = new Int32Array(FIRST_CAPACITY);
  rows = 0;

  constructor(
    readonly type: 'string' | 'json',
    readonly utf8: Utf8Blocks,
  ) {}

  add(c: Cell): boolean {
    this.push(c === null ? -1 : this.utf8.add(String(c)));
    return true;
  }

  /** A handle in the blocks, or -1 for null. */
  push(handle: number): void {
    this.values = grown(this.values, this.rows);
    this.values[this.rows++] = handle;
  }

  truncate(rows: number): void {
    this.rows = rows;
  }
}

export type ColumnStore = NumberColumn | FlagColumn | TextColumn;

/** The store for a column of this type; text columns share `utf8`, reset with the group. */
export function columnStore(type: ColumnType, utf8: Utf8Blocks): ColumnStore {
  switch (type) {
    case 'int':
    case 'float':
    case 'timestamp':
      return new NumberColumn(type);
    case 'bool':
      return new FlagColumn();
    case 'string':
    case 'json':
      return new TextColumn(type, utf8);
  }
}
