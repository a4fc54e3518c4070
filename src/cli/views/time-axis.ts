/**
 * One time axis for every row of the trends chart: from the earliest bucket
 * any row has to the latest, every bucket of the request's `time_bucket` in
 * between, so a day without articles is an empty cell and the rows line up
 * in time (the service, like the mock, lists only buckets that have
 * articles). Keys that are not dates, or no known bucket size: the sorted
 * union of the keys, which still gives every row the same columns.
 */
import { type Json, num, obj } from './read.js';

const HOUR_MS = 3_600_000;
const STEP_MS: Record<string, number> = {
  hour: HOUR_MS,
  day: 24 * HOUR_MS,
  week: 7 * 24 * HOUR_MS,
};
/** More buckets than any terminal shows; past it the axis is the keys' union. */
const MAX_BUCKETS = 10_000;

/** A row's count per bucket key: a number, or `{count}`. */
function countsOf(row: Json): Map<string, number> | undefined {
  const buckets = obj(row['buckets']);
  if (!buckets) return undefined;
  return new Map(
    Object.entries(buckets).map(([k, v]) => [k, num(v) ?? num(obj(v)?.['count']) ?? 0]),
  );
}

function next(ms: number, unit: string): number {
  if (unit === 'month') {
    const d = new Date(ms);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return ms + (STEP_MS[unit] ?? Number.NaN);
}

/** Bucket starts from `first` to `last`, or undefined when the unit is unknown or the span too long. */
function steps(first: number, last: number, unit: string | undefined): number[] | undefined {
  if (unit === undefined || (unit !== 'month' && STEP_MS[unit] === undefined)) return undefined;
  const out: number[] = [];
  for (let t = first; t <= last; t = next(t, unit)) {
    out.push(t);
    if (out.length > MAX_BUCKETS) return undefined;
  }
  return out;
}

/** Each row's values on the shared axis (undefined for a row without buckets), oldest first. */
export function alignedBuckets(
  rows: readonly Json[],
  unit: string | undefined,
): (number[] | undefined)[] {
  const counts = rows.map(countsOf);
  const keys = [...new Set(counts.flatMap((c) => (c ? [...c.keys()] : [])))];
  const times = keys.map((k) => Date.parse(k));
  const axis =
    keys.length > 0 && times.every(Number.isFinite)
      ? steps(Math.min(...times), Math.max(...times), unit)
      : undefined;
  if (axis === undefined) {
    const sorted = keys.sort();
    return counts.map((c) => (c ? sorted.map((k) => c.get(k) ?? 0) : undefined));
  }
  // A key is counted in the bucket that starts at or before it (a key off the grid still lands).
  const indexOf = (t: number): number => {
    let lo = 0;
    let hi = axis.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (axis[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return counts.map((c) => {
    if (!c) return undefined;
    const values = new Array<number>(axis.length).fill(0);
    for (const [k, v] of c) values[indexOf(Date.parse(k))]! += v;
    return values;
  });
}
