/**
 * The values of the row group being filled, column by column. Numbers and
 * flags go into typed arrays and long text into UTF-8 blocks (utf8-blocks.ts)
 * as the rows come; hyparquet-writer gets its arrays of JS values (bigints,
 * numbers, byte views) only when the group is written, and drops them right
 * after. Held as JS values for the life of the group, about 45 objects a row
 * (BigInts, boxed doubles, byte views) were copied by every young-generation
 * collection of a convert worker until promoted, then collected from the old
 * generation.
 */
import type { ColumnType } from '../columns.js';
import type { Cell } from '../flatten.js';
import type { Utf8Blocks } from './utf8-blocks.js';

/** A value as hyparquet-writer takes it for our physical types. */
export type Value = bigint | number | boolean | string | Uint8Array | null;

/**
 * Text values longer than this (UTF-16 units) are free text (titles, bodies,
 * JSON companions): held as UTF-8, and a column whose values in a group are
 * mostly such text is written PLAIN, without hyparquet's dictionary attempt,
 * which would hash every value only to find them all different. Shorter text
 * (languages, domains, polarities) is left to hyparquet, which writes it as
 * a dictionary when that pays.
 */
const FREE_TEXT_LENGTH = 64;
const FIRST_CAPACITY = 256;

export interface ColumnValues {
  /** Adds a row's cell; false when it does not fit the column's type (it is then null). */
  add(cell: Cell): boolean;
  /** The group's values, as hyparquet-writer takes them. */
  values(): Value[];
  /** True when most of the group's values are free text: written PLAIN. */
  readonly plain: boolean;
  /** Empties the column for the next group (typed arrays are kept). */
  reset(): void;
}

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
function numbers(type: 'int' | 'float' | 'timestamp'): ColumnValues {
  let held = new Float64Array(FIRST_CAPACITY);
  let rows = 0;
  const fits =
    type === 'float'
      ? Number.isFinite
      : type === 'int'
        ? Number.isSafeInteger
        : (n: number) => Number.isFinite(n);
  const read =
    type === 'timestamp'
      ? (c: Cell) => (typeof c === 'string' ? Date.parse(c) : Number.NaN)
      : numberOf;
  return {
    plain: false,
    add(c) {
      held = grown(held, rows);
      if (c === null) {
        held[rows++] = Number.NaN;
        return true;
      }
      const n = read(c);
      const ok = fits(n);
      held[rows++] = ok ? n : Number.NaN;
      return ok;
    },
    values() {
      const out = new Array<Value>(rows);
      for (let i = 0; i < rows; i++) {
        const n = held[i]!;
        out[i] = Number.isNaN(n) ? null : type === 'float' ? n : BigInt(n);
      }
      return out;
    },
    reset() {
      rows = 0;
    },
  };
}

const FALSE = 0;
const TRUE = 1;
const NULL = 2;

function flags(): ColumnValues {
  let held = new Uint8Array(FIRST_CAPACITY);
  let rows = 0;
  return {
    plain: false,
    add(c) {
      held = grown(held, rows);
      const ok = c === null || typeof c === 'boolean';
      held[rows++] = c === true ? TRUE : c === false ? FALSE : NULL;
      return ok;
    },
    values() {
      const out = new Array<Value>(rows);
      for (let i = 0; i < rows; i++) out[i] = held[i] === NULL ? null : held[i] === TRUE;
      return out;
    },
    reset() {
      rows = 0;
    },
  };
}

/** string and json columns: short text as strings, free text as UTF-8 in the shared blocks. */
function texts(utf8: Utf8Blocks): ColumnValues {
  let short: (string | null)[] = [];
  /** Per row: the value's handle in `utf8`, or -1 for a short value (in `short`). */
  let handles = new Int32Array(FIRST_CAPACITY);
  let rows = 0;
  let long = 0;
  return {
    get plain() {
      return long * 2 > rows;
    },
    add(c) {
      handles = grown(handles, rows);
      const s = c === null ? null : String(c);
      if (s !== null && s.length > FREE_TEXT_LENGTH) {
        handles[rows] = utf8.add(s);
        short.push(null);
        long++;
      } else {
        handles[rows] = -1;
        short.push(s);
      }
      rows++;
      return true;
    },
    values() {
      const out = new Array<Value>(rows);
      for (let i = 0; i < rows; i++) {
        const h = handles[i]!;
        out[i] = h < 0 ? short[i]! : utf8.view(h);
      }
      return out;
    },
    reset() {
      short = [];
      rows = 0;
      long = 0;
    },
  };
}

/** The collector for a column of this type; text columns share `utf8`, reset with the group. */
export function columnValues(type: ColumnType, utf8: Utf8Blocks): ColumnValues {
  switch (type) {
    case 'int':
    case 'float':
    case 'timestamp':
      return numbers(type);
    case 'bool':
      return flags();
    case 'string':
    case 'json':
      return texts(utf8);
  }
}
