import type { Prepared } from './prepare.js';
import { hasRow, intersect } from './row-sets.js';
import type { DocFilter } from './types.js';

/** Rows in index order (published_at descending): the whole index, or an entity's or a story's. */
export type Candidates = ArrayLike<number>;

/** First place in `rows` whose time is ≤ `ms`. */
function firstAtOrBefore(rows: Candidates, times: Float64Array, ms: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[rows[mid] as number] as number) <= ms) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The slice [begin, end) of `rows` within the request's date bounds. */
function dateRange(prepared: Prepared, rows: Candidates): [number, number] {
  const times = prepared.table.published.data;
  const begin = prepared.to === Infinity ? 0 : firstAtOrBefore(rows, times, prepared.to);
  const end =
    prepared.from === -Infinity ? rows.length : firstAtOrBefore(rows, times, prepared.from - 1);
  return [begin, end];
}

/** Bit `row & 31` onwards of the word holding `row`, in every one of `sets`. */
function wordFrom(sets: readonly Uint32Array[], row: number): number {
  const w = row >>> 5;
  let word = (sets[0] as Uint32Array)[w] as number;
  for (let s = 1; s < sets.length && word !== 0; s++) word &= (sets[s] as Uint32Array)[w] as number;
  return word >>> (row & 31);
}

/**
 * The first place at or after `i` (before `end`) whose row is in every one
 * of `sets`, stepping over runs of consecutive rows (`runs`, row-order.ts)
 * by the 32-bit words of the bitmaps (ANDed as they are read): sparse
 * bitmaps cost a few steps per word, not one per article.
 */
function nextInSets(
  rows: Int32Array,
  runs: Int32Array,
  sets: readonly Uint32Array[],
  i: number,
  end: number,
): number {
  while (i < end) {
    const row = rows[i] as number;
    const word = wordFrom(sets, row);
    const run = runs[i] as number;
    if (word !== 0) {
      // The lowest set bit: rows row … row + k - 1 are out.
      const k = 31 - Math.clz32(word & -word);
      if (k < run) return i + k;
      i += run;
      continue;
    }
    const rest = 32 - (row & 31);
    i += rest < run ? rest : run;
  }
  return end;
}

/** The runs of the index when `rows` is the index itself (else undefined: each row is tested). */
function runsOf(prepared: Prepared, rows: Candidates): Int32Array | undefined {
  const index = prepared.table.index;
  const view = index.view;
  return rows instanceof Int32Array &&
    rows.buffer === view.buffer &&
    rows.byteOffset === view.byteOffset &&
    rows.length === view.length
    ? index.runs()
    : undefined;
}

/**
 * Calls `visit` with each candidate in the date slice whose row is in every
 * one of `sets` and passes `filters`, in order, until it returns false.
 */
function scan(
  prepared: Prepared,
  rows: Candidates,
  sets: readonly Uint32Array[],
  filters: readonly DocFilter[],
  visit: (row: number) => boolean,
): void {
  const [begin, end] = dateRange(prepared, rows);
  const runs = sets.length === 0 ? undefined : runsOf(prepared, rows);
  if (runs !== undefined) {
    const order = rows as Int32Array;
    for (let i = nextInSets(order, runs, sets, begin, end); i < end; ) {
      const row = order[i] as number;
      if (passes(filters, row) && !visit(row)) return;
      i = nextInSets(order, runs, sets, i + 1, end);
    }
    return;
  }
  const bits = intersect(sets, prepared.table.rows);
  for (let i = begin; i < end; i++) {
    const row = rows[i] as number;
    if ((bits === undefined || hasRow(bits, row)) && passes(filters, row) && !visit(row)) return;
  }
}

/** True when every filter accepts the row (small enough for V8 to inline in the loops). */
function passes(filters: readonly DocFilter[], row: number): boolean {
  for (let f = 0; f < filters.length; f++) {
    if (!(filters[f] as DocFilter)(row)) return false;
  }
  return true;
}

/** The request's filters for a scan: the bitmaps, and the predicates left. */
function scanFilters(
  prepared: Prepared,
  extra: readonly DocFilter[],
): { sets: readonly Uint32Array[]; filters: DocFilter[] } {
  const { sets, rest } = prepared.scan;
  return { sets, filters: extra.length === 0 ? [...rest] : [...extra, ...rest] };
}

/**
 * The candidates matching every filter, in the candidates' order. `rows` must
 * be sorted by published_at descending (the index's order, and an entity's or
 * a story's rows), so the date bounds cut a slice before any predicate runs.
 * `stopAfter`: the scan ends once that many matches are found (a page in the
 * natural order needs its own articles plus one, to know a next page exists).
 */
export function select(
  prepared: Prepared,
  rows: Candidates,
  extra: readonly DocFilter[] = [],
  stopAfter = Number.POSITIVE_INFINITY,
): number[] {
  const { sets, filters } = scanFilters(prepared, extra);
  const out: number[] = [];
  if (stopAfter <= 0) return out;
  scan(prepared, rows, sets, filters, (row) => out.push(row) < stopAfter);
  return out;
}

/** How many candidates match every filter, without collecting them (/v1/news/count). */
export function countMatches(prepared: Prepared, rows: Candidates): number {
  const { sets, filters } = scanFilters(prepared, []);
  if (filters.length === 0 && sets.length === 0) {
    const [begin, end] = dateRange(prepared, rows);
    return Math.max(0, end - begin);
  }
  let count = 0;
  scan(prepared, rows, sets, filters, () => {
    count++;
    return true;
  });
  return count;
}

/** Reused by `selectRows` (see `scratch` in sort.ts for why). */
let rowsBuffer = new Int32Array(0);

/**
 * The matching rows, in index order, for ranking from columns. The array is
 * reused by the next call: use it before searching again.
 */
export function selectRows(
  prepared: Prepared,
  rows: Candidates,
  extra: readonly DocFilter[] = [],
): Int32Array {
  const { sets, filters } = scanFilters(prepared, extra);
  const [begin, end] = dateRange(prepared, rows);
  if (rowsBuffer.length < end - begin)
    rowsBuffer = new Int32Array(Math.max(end - begin, rows.length));
  const out = rowsBuffer;
  let k = 0;
  scan(prepared, rows, sets, filters, (row) => {
    out[k++] = row;
    return true;
  });
  return out.subarray(0, k);
}
