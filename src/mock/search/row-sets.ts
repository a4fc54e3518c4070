/**
 * Filters kept between requests as bitmaps over the table's rows, one bit a
 * row. A filter value asked for again (`language.code=en`, a category, a
 * title word) then costs one bit test a row in the scan, or nothing when
 * several are combined beforehand with a word-wise AND, instead of its
 * predicate: a five-filter search scans a 30,000-article date slice in tens
 * of microseconds. Only filters that depend on the row and their own value
 * alone are kept (filters.ts, `rowOnly`): the bitmap is then the predicate,
 * exactly, for every row.
 *
 * A value is kept from its second request on (a one-off value would pay a
 * scan of every row for nothing); at most MAX_SETS are kept, the least
 * recently used dropped first. Rows appended since (posted and published
 * articles) are evaluated when a bitmap is next used; rows renumbered by a
 * compaction start them all again.
 */
import type { ArticleTable } from '../store/table.js';
import type { DocFilter } from './types.js';

/** 256 bitmaps of 100,000 rows: 3.2 MB. */
const MAX_SETS = 256;
/** Keys asked for once, remembered to recognise the second request. */
const MAX_SEEN = 4096;

interface RowSet {
  bits: Uint32Array;
  /** Rows [0, rows) are evaluated. */
  rows: number;
}

/** Whether row `row` is in `bits`. */
export const hasRow = (bits: Uint32Array, row: number): boolean =>
  (((bits[row >>> 5] as number) >>> (row & 31)) & 1) === 1;

export class RowSets {
  private sets = new Map<string, RowSet>();
  private seen = new Set<string>();
  private generation: number;

  constructor(private readonly table: ArticleTable) {
    this.generation = table.generation;
  }

  /**
   * The rows the filter accepts, as a bitmap covering every row of the
   * table (valid until rows are appended), when `key` (the parameter and
   * its value) was asked for before; else undefined, and the caller runs
   * the predicate itself. `make` makes the predicate (undefined: every row
   * passes); it is called only when rows are left to evaluate.
   */
  bitsOf(key: string, make: () => DocFilter | undefined): Uint32Array | undefined {
    const t = this.table;
    if (t.generation !== this.generation) {
      this.sets.clear();
      this.generation = t.generation;
    }
    let set = this.sets.get(key);
    if (set === undefined) {
      if (!this.seen.has(key)) {
        if (this.seen.size >= MAX_SEEN) this.seen.clear();
        this.seen.add(key);
        return undefined;
      }
      if (this.sets.size >= MAX_SETS) {
        const oldest = this.sets.keys().next();
        if (!oldest.done) this.sets.delete(oldest.value);
      }
      set = { bits: new Uint32Array(0), rows: 0 };
    } else this.sets.delete(key); // most recently used last: Map keeps insertion order
    this.sets.set(key, set);
    const n = t.rows;
    if (set.rows < n) {
      const words = (n + 31) >>> 5;
      if (set.bits.length < words) {
        const grown = new Uint32Array(Math.max(words, Math.ceil(set.bits.length * 1.25)));
        grown.set(set.bits);
        set.bits = grown;
      }
      const bits = set.bits;
      const filter = make() ?? (() => true);
      for (let row = set.rows; row < n; row++) {
        if (filter(row)) bits[row >>> 5] = (bits[row >>> 5] as number) | (1 << (row & 31));
      }
      set.rows = n;
    }
    return set.bits;
  }
}

/** Reused by `intersect` (one request at a time runs the engine). */
let scratch = new Uint32Array(0);

/**
 * The rows in every one of `sets`: the set itself when there is one, else
 * their AND in a buffer the next call reuses. Undefined: no set, every row.
 */
export function intersect(sets: readonly Uint32Array[], rows: number): Uint32Array | undefined {
  if (sets.length === 0) return undefined;
  if (sets.length === 1) return sets[0];
  const words = (rows + 31) >>> 5;
  if (scratch.length < words) scratch = new Uint32Array(words);
  const out = scratch;
  const first = sets[0] as Uint32Array;
  for (let w = 0; w < words; w++) out[w] = first[w] as number;
  for (let s = 1; s < sets.length; s++) {
    const set = sets[s] as Uint32Array;
    for (let w = 0; w < words; w++) out[w] = (out[w] as number) & (set[w] as number);
  }
  return out;
}
