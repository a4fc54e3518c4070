import type { FACET_FIELDS } from '../../params/search-values.js';
import { addGap, type DateGap, parseDateBound, parseGap } from './dates.js';
import type { ArticleTable } from '../store/table.js';
import { FIELDS } from './fields.js';
import {
  entityIds,
  imageCount,
  isBreaking,
  isDuplicate,
  isFree,
  languageOf,
  sourceOf,
} from './row.js';

export type FacetField = (typeof FACET_FIELDS)[number];

/** Ids and names the store knows, so facet values carry a readable name. */
export interface FacetLookup {
  readonly countryId: (code: string) => number | undefined;
  readonly languageId: (code: string) => number | undefined;
  /** The display name of a facet value, when there is one. */
  readonly name: (field: FacetField, value: string) => string | undefined;
}

const DAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
const pad = (n: number): string => String(n).padStart(2, '0');

function timeOfDay(hour: number): string {
  if (hour < 6) return 'night';
  if (hour < 12) return 'morning';
  if (hour < 18) return 'afternoon';
  return 'evening';
}

/**
 * The value(s) an article contributes to each facet. The service does not define
 * the derived facets; the mock's buckets (all times UTC):
 * - sentiment.strength: |overall score| < 0.3 weak, < 0.6 moderate, else strong;
 * - is_important: breaking, or a source of authority 7 or more;
 * - content.length: words < 300 short, ≤ 1000 medium, else long;
 * - published.month '01'–'12', day_of_week 'monday'…, hour '00'–'23',
 *   weekday 'weekday'/'weekend', time_of_day night/morning/afternoon/evening.
 */
export function facetValues(
  field: FacetField,
  t: ArticleTable,
  row: number,
  lookup: FacetLookup,
): readonly string[] {
  const date = new Date(t.published.data[row] as number);
  switch (field) {
    case 'source.id': {
      const id = sourceOf(t, row).id;
      return id === null ? [] : [String(id)];
    }
    case 'source.country.id': {
      const code = sourceOf(t, row).location.country_code.toLowerCase();
      return [String(lookup.countryId(code) ?? code)];
    }
    case 'language.id': {
      const code = languageOf(t, row);
      return [String(lookup.languageId(code) ?? code)];
    }
    case 'source.bias':
    case 'author.id':
    case 'category.id':
    case 'topic.id':
    case 'industry.id':
    case 'sentiment.overall.polarity':
    case 'sentiment.title.polarity':
    case 'sentiment.body.polarity': {
      const accessor = FIELDS[field];
      return accessor?.kind === 'keyword' ? [...new Set(accessor.values(t, row))] : [];
    }
    case 'entity.id':
      return [...new Set(entityIds(t, row).map(String))];
    case 'sentiment.strength': {
      const s = Math.abs(t.sentimentOverall.data[row] as number);
      return [s < 0.3 ? 'weak' : s < 0.6 ? 'moderate' : 'strong'];
    }
    case 'is_duplicate':
      return [isDuplicate(t, row) ? '1' : '0'];
    case 'is_free':
      return [isFree(t, row) ? '1' : '0'];
    case 'is_important':
      return [isBreaking(t, row) || sourceOf(t, row).rankings.opr >= 7 ? '1' : '0'];
    case 'media.images.count':
      return [String(imageCount(t, row))];
    case 'media.videos.count':
      return [String(t.videoCount.data[row])];
    case 'read_time':
      return [String(t.readTime.data[row])];
    case 'content.length': {
      const words = t.wordsCount.data[row] as number;
      return [words < 300 ? 'short' : words <= 1000 ? 'medium' : 'long'];
    }
    case 'published.year':
      return [String(date.getUTCFullYear())];
    case 'published.month':
      return [pad(date.getUTCMonth() + 1)];
    case 'published.day_of_week':
      return [DAYS[date.getUTCDay()] as string];
    case 'published.hour':
      return [pad(date.getUTCHours())];
    case 'published.weekday':
      return [date.getUTCDay() === 0 || date.getUTCDay() === 6 ? 'weekend' : 'weekday'];
    case 'published.time_of_day':
      return [timeOfDay(date.getUTCHours())];
  }
}

export interface FacetEntry {
  value: string;
  count: number;
  name?: string;
}

/** Counts per value over every matching article; most frequent first, ties by value. */
export function fieldFacet(
  field: FacetField,
  t: ArticleTable,
  rows: readonly number[],
  limit: number,
  mincount: number,
  lookup: FacetLookup,
): FacetEntry[] {
  const counts = new Map<string, number>();
  for (const row of rows) {
    for (const v of facetValues(field, t, row, lookup)) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, n]) => n >= mincount)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'en', { numeric: true }))
    .slice(0, limit)
    .map(([value, count]) => {
      const name = lookup.name(field, value);
      return name === undefined ? { value, count } : { value, count, name };
    });
}

/** Fields `facet.range.field` takes (spec/openapi.json). */
const RANGE_FIELDS: Readonly<Record<string, (t: ArticleTable, row: number) => number>> = {
  published_at: (t, r) => t.published.data[r] as number,
  'sentiment.overall.score': (t, r) => t.sentimentOverall.data[r] as number,
  'sentiment.title.score': (t, r) => t.sentimentTitle.data[r] as number,
  'sentiment.body.score': (t, r) => t.sentimentBody.data[r] as number,
  read_time: (t, r) => t.readTime.data[r] as number,
  'source.rank.opr': (t, r) => sourceOf(t, r).rankings.opr,
  'media.images.count': imageCount,
  'media.videos.count': (t, r) => t.videoCount.data[r] as number,
};

/** More buckets than this is a mistake in the gap, not a useful answer. */
const MAX_BUCKETS = 1000;

export interface RangeFacet {
  start: string | number;
  end: string | number;
  gap: string;
  counts: { value: string | number; count: number }[];
}

/**
 * Buckets [start, start+gap), … up to `end` (the last one is cut at `end`),
 * every bucket listed even when empty, as Solr does. Undefined when a bound or the
 * gap is missing or malformed: an invalid value is silently not applied.
 */
export function rangeFacet(
  field: string,
  startText: string | undefined,
  endText: string | undefined,
  gapText: string,
  t: ArticleTable,
  rows: readonly number[],
  now: number,
): RangeFacet | undefined {
  const read = RANGE_FIELDS[field];
  if (read === undefined || startText === undefined || endText === undefined) return undefined;
  const isDate = field === 'published_at';
  const start = isDate ? parseDateBound(startText, now) : Number(startText);
  const end = isDate ? parseDateBound(endText, now) : Number(endText);
  if (!Number.isFinite(start) || !Number.isFinite(end) || start >= end) return undefined;
  let next: (x: number) => number;
  if (isDate) {
    const gap: DateGap | undefined = parseGap(gapText);
    if (gap === undefined) return undefined;
    next = (x) => addGap(x, gap);
  } else {
    const step = Number(gapText.replace(/^\+/, ''));
    if (!Number.isFinite(step) || step <= 0) return undefined;
    next = (x) => x + step;
  }
  const edges: number[] = [];
  for (let x = start; x < end && edges.length < MAX_BUCKETS; x = next(x)) edges.push(x);
  const counts = edges.map(() => 0);
  // Cut at MAX_BUCKETS, the last bucket ends where the next would start.
  const last = edges.length === MAX_BUCKETS ? next(edges[edges.length - 1] as number) : end;
  const stop = Math.min(end, last);
  for (const row of rows) {
    const v = read(t, row);
    if (v < start || v >= stop) continue;
    // Binary search for the last edge ≤ v.
    let lo = 0;
    let hi = edges.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((edges[mid] as number) <= v) lo = mid;
      else hi = mid - 1;
    }
    counts[lo] = (counts[lo] ?? 0) + 1;
  }
  const show = (x: number): string | number => (isDate ? new Date(x).toISOString() : x);
  return {
    start: show(start),
    end: show(end),
    gap: gapText,
    counts: edges.map((x, i) => ({ value: show(x), count: counts[i] ?? 0 })),
  };
}
