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

/** True when every filter accepts the row (small enough for V8 to inline in the loops). */
function passes(filters: readonly DocFilter[], row: number): boolean {
  for (let f = 0; f < filters.length; f++) {
    if (!(filters[f] as DocFilter)(row)) return false;
  }
  return true;
}

/** The request's filters for a scan: one bitmap (or none) and the predicates left. */
function scanFilters(
  prepared: Prepared,
  extra: readonly DocFilter[],
): { bits: Uint32Array | undefined; filters: DocFilter[] } {
  const { sets, rest } = prepared.scan;
  return {
    bits: intersect(sets, prepared.table.rows),
    filters: extra.length === 0 ? [...rest] : [...extra, ...rest],
  };
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
  const { bits, filters } = scanFilters(prepared, extra);
  const [begin, end] = dateRange(prepared, rows);
  const out: number[] = [];
  for (let i = begin; i < end && out.length < stopAfter; i++) {
    const row = rows[i] as number;
    if ((bits === undefined || hasRow(bits, row)) && passes(filters, row)) out.push(row);
  }
  return out;
}

/** How many candidates match every filter, without collecting them (/v1/news/count). */
export function countMatches(prepared: Prepared, rows: Candidates): number {
  const { bits, filters } = scanFilters(prepared, []);
  const [begin, end] = dateRange(prepared, rows);
  if (filters.length === 0 && bits === undefined) return Math.max(0, end - begin);
  let count = 0;
  for (let i = begin; i < end; i++) {
    const row = rows[i] as number;
    if ((bits === undefined || hasRow(bits, row)) && passes(filters, row)) count++;
  }
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
  const { bits, filters } = scanFilters(prepared, extra);
  const [begin, end] = dateRange(prepared, rows);
  if (rowsBuffer.length < end - begin)
    rowsBuffer = new Int32Array(Math.max(end - begin, rows.length));
  const out = rowsBuffer;
  let k = 0;
  for (let i = begin; i < end; i++) {
    const row = rows[i] as number;
    if ((bits === undefined || hasRow(bits, row)) && passes(filters, row)) out[k++] = row;
  }
  return out.subarray(0, k);
}
