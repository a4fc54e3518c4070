/**
 * The values of the row group being filled, column by column, in typed
 * arrays: numbers in a Float64Array (NaN for null), flags in a Uint8Array,
 * text as UTF-8 in a buffer of its own, laid out as a PLAIN page. The page
 * writer (fast/parquet/pages.ts) reads them from there; no JS value is made per
 * cell. Held as JS values for the life of the group, about 45 objects a
 * row (BigInts, boxed doubles, strings) were copied by every young-generation
 * collection of a convert worker until promoted.
 *
 * A cell comes from a record (`add`, with the type rules below) or from
 * convert's byte reader (parquet-bytes.ts), which checks the value itself
 * and pushes it. `truncate` takes back a row the byte reader gave up on.
 */
import type { ColumnType } from '../../columns.js';
import type { Cell } from '../../flatten.js';
import { TextOut } from '../tape-text.js';

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

  reset(): void {
    this.rows = 0;
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

  reset(): void {
    this.rows = 0;
  }
}

const encoder = new TextEncoder();
/** A text column's buffer is kept from group to group up to this size (a 2 MB chunk's body column takes ~0.5 MB). */
const KEPT_BYTES = 4 * 1024 * 1024;

/**
 * string and json columns: the group's values as UTF-8, each after its
 * length in four bytes, one after another in the column's own buffer: the
 * layout of a PLAIN page, which is then compressed from there, not copied.
 * A value is written between `begin` and `end` (convert's byte reader writes
 * its bytes straight into `out`).
 */
export class TextColumn {
  readonly out = new TextOut();
  /** Per row: where its value starts in `out` (at its length), or -1 for null. */
  values = new Int32Array(FIRST_CAPACITY);
  rows = 0;
  /** Where the value being written starts. */
  private open = 0;
  /** `out`'s length after the last whole value. */
  private written = 0;

  constructor(readonly type: 'string' | 'json') {}

  /** A record's cell (as text: lone surrogates as U+FFFD, as TextEncoder writes them). */
  add(c: Cell): boolean {
    if (c === null) {
      this.pushNull();
      return true;
    }
    const text = String(c);
    const out = this.out;
    this.begin();
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    out.ensure(text.length * 3);
    out.length += encoder.encodeInto(text, out.bytes.subarray(out.length)).written;
    this.end();
    return true;
  }

  pushNull(): void {
    this.values = grown(this.values, this.rows);
    this.values[this.rows++] = -1;
  }

  /** Starts a value: what is written to `out` until `end` is its text. */
  begin(): void {
    const out = this.out;
    out.ensure(4);
    this.open = out.length;
    out.length += 4;
  }

  end(): void {
    const out = this.out;
    const at = this.open;
    const length = out.length - at - 4;
    const bytes = out.bytes;
    bytes[at] = length;
    bytes[at + 1] = length >>> 8;
    bytes[at + 2] = length >>> 16;
    bytes[at + 3] = length >>> 24;
    this.values = grown(this.values, this.rows);
    this.values[this.rows++] = at;
    this.written = out.length;
  }

  /** The length of row's value (not null). */
  length(row: number): number {
    const at = this.values[row]!;
    const b = this.out.bytes;
    return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
  }

  /** Takes back the rows from `rows` on, and a value begun and not ended. */
  truncate(rows: number): void {
    let length = this.written;
    for (let r = rows; r < this.rows; r++) {
      if (this.values[r]! >= 0) {
        length = this.values[r]!;
        break;
      }
    }
    this.out.length = length;
    this.written = length;
    this.rows = rows;
  }

  /** Empties the column for the next group; a buffer grown for huge values is not kept. */
  reset(): void {
    this.truncate(0);
    if (this.out.bytes.length > KEPT_BYTES) this.out.bytes = new Uint8Array(0);
  }
}

export type ColumnStore = NumberColumn | FlagColumn | TextColumn;

export function columnStore(type: ColumnType): ColumnStore {
  switch (type) {
    case 'int':
    case 'float':
    case 'timestamp':
      return new NumberColumn(type);
    case 'bool':
      return new FlagColumn();
    case 'string':
    case 'json':
      return new TextColumn(type);
  }
}
