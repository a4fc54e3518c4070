import { parseDateValue } from '../values.js';
import type { Comparison } from './target.js';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The instants [first, last] a date value covers: a whole day for `YYYY-MM-DD`, one instant otherwise. */
function span(value: string | number): [number, number] {
  const text = String(value);
  const at = parseDateValue(text);
  return DATE_ONLY.test(text) ? [at, at + DAY_MS - 1] : [at, at];
}

/**
 * A test on milliseconds since the epoch for a `published_at` comparison, so every
 * target reads dates alike: a date without a time stands for its whole (UTC) day,
 * as the flat `published_at` does. `published_at:D` is within D, `>D` after D,
 * `>=D` from its start, `<D` before it, `<=D` until its end, `[D1 TO D2]` from the
 * start of D1 to the end of D2.
 */
export function dateTest(c: Comparison): (ms: number) => boolean {
  switch (c.op) {
    case 'eq':
    case 'phrase': {
      const [lo, hi] = span(c.value);
      return (ms) => ms >= lo && ms <= hi;
    }
    case 'gt': {
      const hi = span(c.value)[1];
      return (ms) => ms > hi;
    }
    case 'gte': {
      const lo = span(c.value)[0];
      return (ms) => ms >= lo;
    }
    case 'lt': {
      const lo = span(c.value)[0];
      return (ms) => ms < lo;
    }
    case 'lte': {
      const hi = span(c.value)[1];
      return (ms) => ms <= hi;
    }
    case 'range': {
      const lo = c.from === undefined ? Number.NEGATIVE_INFINITY : span(c.from)[0];
      const hi = c.to === undefined ? Number.POSITIVE_INFINITY : span(c.to)[1];
      return (ms) => ms >= lo && ms <= hi;
    }
  }
}
