import { parseDateValue } from '../../params/values.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** Title filters and `query` search at most this far back (ER0110, ER0366). */
export const TITLE_WINDOW_MS = 31 * DAY_MS;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Start of the UTC day holding `ms`. */
export function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** `published_at=D`: the 24 hours of that (UTC) day; a date-time picks the day it falls in. */
export function dayRange(value: string): { from: number; to: number } {
  const from = startOfDay(parseDateValue(value));
  return { from, to: from + DAY_MS - 1 };
}

/** A range start: the instant itself (a bare date is its midnight). */
export function rangeStart(value: string): number {
  return parseDateValue(value);
}

/** A range end is inclusive; a bare date includes its whole day. */
export function rangeEnd(value: string): number {
  const ms = parseDateValue(value);
  return DATE_ONLY.test(value.trim()) ? ms + DAY_MS - 1 : ms;
}

const GAP = /^\+?(\d+)\s*(SECOND|MINUTE|HOUR|DAY|WEEK|MONTH|YEAR)S?$/i;

export interface DateGap {
  readonly amount: number;
  readonly unit: 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';
}

/** Solr-style gap (`+1DAY`, `+6HOURS`, `+1MONTH`) or undefined. */
export function parseGap(text: string): DateGap | undefined {
  const m = GAP.exec(text.trim());
  if (!m?.[1] || !m[2]) return undefined;
  const amount = Number(m[1]);
  if (amount <= 0) return undefined;
  return { amount, unit: m[2].toUpperCase() as DateGap['unit'] };
}

const UNIT_MS: Readonly<Record<Exclude<DateGap['unit'], 'MONTH' | 'YEAR'>, number>> = {
  SECOND: 1000,
  MINUTE: 60_000,
  HOUR: HOUR_MS,
  DAY: DAY_MS,
  WEEK: 7 * DAY_MS,
};

/** `ms` moved forward by `times` gaps (calendar months and years in UTC). */
export function addGap(ms: number, gap: DateGap, times = 1): number {
  if (gap.unit === 'MONTH' || gap.unit === 'YEAR') {
    const d = new Date(ms);
    const months = gap.amount * times * (gap.unit === 'YEAR' ? 12 : 1);
    d.setUTCMonth(d.getUTCMonth() + months);
    return d.getTime();
  }
  return ms + gap.amount * times * UNIT_MS[gap.unit];
}

const MATH = /^NOW(?:([+-])(\d+)\s*(SECOND|MINUTE|HOUR|DAY|WEEK|MONTH|YEAR)S?)?(?:\/(DAY|HOUR))?$/i;

/** A range-facet bound: a date, or Solr date math relative to now (`NOW-7DAYS`, `NOW/DAY`). */
export function parseDateBound(text: string, now: number): number {
  const m = MATH.exec(text.trim());
  if (!m) return parseDateValue(text.trim());
  let ms = now;
  if (m[1] && m[2] && m[3]) {
    const gap: DateGap = { amount: Number(m[2]), unit: m[3].toUpperCase() as DateGap['unit'] };
    ms = addGap(ms, gap, m[1] === '-' ? -1 : 1);
  }
  if (m[4]) ms = m[4].toUpperCase() === 'DAY' ? startOfDay(ms) : Math.floor(ms / HOUR_MS) * HOUR_MS;
  return ms;
}
