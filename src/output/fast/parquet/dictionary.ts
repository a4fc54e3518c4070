/**
 * The dictionary decision of a Parquet column chunk (fast/parquet/pages.ts): a
 * hash table of the column's distinct values, built only when a sample says
 * it may pay, and dropped as soon as it cannot halve the PLAIN bytes
 * (hyparquet-writer's rule).
 */
import type { NumberColumn, TextColumn } from './columns.js';

/** A sample of this many values (or of SAMPLE_BYTES) decides whether a dictionary is worth building. */
const SAMPLE = 64;
const SAMPLE_BYTES = 32 * 1024;

/**
 * FNV-1a over `bytes[start, start + length)`, or over its first and last 32
 * bytes and its length when longer: long values are compared whole anyway
 * when their hashes meet, and hashing every byte of every body cost more
 * than the dictionary attempt is worth.
 */
function hashBytes(bytes: Uint8Array, start: number, length: number): number {
  let h = 0x811c9dc5 ^ length;
  const end = start + length;
  if (length <= 64) {
    for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    return h;
  }
  for (let i = start; i < start + 32; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  for (let i = end - 32; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h;
}

function bytesEqual(a: Uint8Array, as: number, b: Uint8Array, bs: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[as + i] !== b[bs + i]) return false;
  return true;
}

const bits = new Float64Array(1);
const halves = new Int32Array(bits.buffer);

/**
 * A dictionary being built: distinct values by hash (open addressing), and
 * for each row that holds a value, its entry. Keys are compared by the
 * callers (bytes, or a double's bits: -0 and 0 stay apart).
 */
export class Dictionary {
  /** Per slot: entry + 1, or 0 when free. */
  private slots = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  /** Per entry: the row it was first seen in. */
  rowOf = new Int32Array(256);
  size = 0;
  /** Per non-null row, in order: its entry. */
  indexes = new Int32Array(256);
  count = 0;

  clear(capacity: number): void {
    let n = 1024;
    while (n < capacity * 2) n *= 2;
    if (this.slots.length !== n) {
      this.slots = new Int32Array(n);
      this.hashes = new Int32Array(n);
    } else this.slots.fill(0);
    if (this.rowOf.length < capacity) this.rowOf = new Int32Array(capacity);
    if (this.indexes.length < capacity) this.indexes = new Int32Array(capacity);
    this.size = 0;
    this.count = 0;
  }

  /** The entry of `row`'s value (hash `h`), added if new; `same(row, other)` compares two rows' values. */
  entry(h: number, row: number, same: (a: number, b: number) => boolean): number {
    const mask = this.slots.length - 1;
    let i = h & mask;
    for (;;) {
      const s = this.slots[i]!;
      if (s === 0) break;
      if (this.hashes[i] === h && same(this.rowOf[s - 1]!, row)) return s - 1;
      i = (i + 1) & mask;
    }
    const entry = this.size++;
    this.slots[i] = entry + 1;
    this.hashes[i] = h;
    this.rowOf[entry] = row;
    return entry;
  }
}

/** What a column's values come to: sizes for the dictionary decision and page splits. */
export interface Sizes {
  nonNull: number;
  /** PLAIN bytes of the non-null values (with BYTE_ARRAY's 4-byte length prefixes). */
  plain: number;
}

/**
 * Builds the column's dictionary when it pays: a sample of values first
 * (most of them distinct: not worth hashing the rest), then the whole
 * column, dropped as soon as it cannot halve the PLAIN bytes.
 */
export function buildDictionary(
  dict: Dictionary,
  store: NumberColumn | TextColumn,
  levels: Uint8Array,
  sizes: Sizes,
): boolean {
  const { nonNull, plain } = sizes;
  if (nonNull === 0) return false;
  const rows = store.rows;
  const text = store.type === 'string' || store.type === 'json';
  const size = text ? (row: number) => 4 + (store as TextColumn).length(row) : () => 8;
  let hash: (row: number) => number;
  let same: (a: number, b: number) => boolean;
  if (text) {
    const column = store as TextColumn;
    const starts = column.values;
    hash = (row) => hashBytes(column.out.bytes, starts[row]! + 4, column.length(row));
    same = (a, b) => {
      const length = column.length(a);
      return (
        length === column.length(b) &&
        bytesEqual(column.out.bytes, starts[a]! + 4, column.out.bytes, starts[b]! + 4, length)
      );
    };
  } else {
    const values = (store as NumberColumn).values;
    hash = (row) => {
      bits[0] = values[row]!;
      return Math.imul(halves[0]! ^ Math.imul(halves[1]!, 0x9e3779b1), 0x85ebca6b);
    };
    same = (a, b) => Object.is(values[a], values[b]);
  }

  // The sample: values spread over the column; most of their bytes distinct, no dictionary.
  const step = Math.max(1, Math.floor(rows / SAMPLE));
  dict.clear(SAMPLE);
  let sampled = 0;
  let distinct = 0;
  for (let row = 0; row < rows && sampled < SAMPLE_BYTES; row += step) {
    if (levels[row] !== 1) continue;
    const before = dict.size;
    dict.entry(hash(row), row, same);
    const s = size(row);
    sampled += s;
    if (dict.size > before) distinct += s;
  }
  if (sampled > 0 && distinct > 0.9 * sampled) return false;

  dict.clear(nonNull);
  let dictionaryBytes = 0;
  const limit = plain / 2;
  for (let row = 0; row < rows; row++) {
    if (levels[row] !== 1) continue;
    const before = dict.size;
    dict.indexes[dict.count++] = dict.entry(hash(row), row, same);
    if (dict.size > before) {
      dictionaryBytes += size(row);
      if (dictionaryBytes > limit) return false;
    }
  }
  // hyparquet-writer's rule: the dictionary and its bit-packed indexes at most half of PLAIN.
  const indexBytes = Math.ceil((nonNull * Math.ceil(Math.log2(dict.size))) / 8);
  return 2 * (dictionaryBytes + indexBytes) <= plain;
}
