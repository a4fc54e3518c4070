import { MockHttpError } from '../error-envelope.js';
import { searchParam } from '../../params/registry.js';
import type { ParamDef } from '../../params/types.js';
import { type EngineCore, prepareRequest } from '../search/core.js';
import { DAY_MS, dayRange, HOUR_MS, rangeEnd, rangeStart, startOfDay } from '../search/dates.js';
import { FIELDS } from '../search/fields.js';
import { listOf, parseParams, type Value } from '../search/parse-request.js';
import { searchPoints } from '../search/respond.js';
import { categorySlug } from '../search/row.js';
import { select } from '../search/select.js';
import { TEST_MODE_TREND_VALUE } from '../search/test-mode.js';
import type { EngineResult, Params, SearchContext } from '../search/types.js';
import type { ArticleTable } from '../store/table.js';
import {
  TRENDS_AGGREGATION_PARAMS,
  TRENDS_FILTER_NAMES,
  TREND_FIELDS,
} from '../../params/trends-params.js';

/** openapi's five fields, plus the keyword fields a user asks for most (domain, country, language). */
export const MOCK_TREND_FIELDS = [
  ...TREND_FIELDS,
  'source.domain',
  'source.country.code',
  'language.code',
] as const;

/** The CLI's trends table; the mock, like the service, is lenient about extra fields. */
export const TREND_PARAMS: readonly ParamDef[] = TRENDS_AGGREGATION_PARAMS.map((def) =>
  def.name === 'field' ? { ...def, enum: MOCK_TREND_FIELDS } : def,
);

/** The filters trends takes (openapi); the dates are read by the endpoint, which also needs earlier windows. */
const DATE_NAMES = new Set(['published_at', 'published_at.start', 'published_at.end']);
const TREND_FILTERS: readonly ParamDef[] = TRENDS_FILTER_NAMES.filter(
  (n) => !DATE_NAMES.has(n),
).map((n) => searchParam(n) as ParamDef);

const DATE_DEFS: readonly ParamDef[] = [...DATE_NAMES].map((n) => searchParam(n) as ParamDef);

/** openapi: "Maximum date range: 30 days"; a wider range is cut to the 30 days before its end. */
const MAX_RANGE_MS = 30 * DAY_MS;

function windowOf(dates: ReadonlyMap<string, Value>, now: number): { from: number; to: number } {
  const day = dates.get('published_at');
  if (day !== undefined) return dayRange(String(day));
  const end = dates.get('published_at.end');
  const start = dates.get('published_at.start');
  const to = end === undefined ? now : rangeEnd(String(end));
  const from =
    start === undefined
      ? to - MAX_RANGE_MS
      : Math.max(rangeStart(String(start)), to - MAX_RANGE_MS);
  return { from, to };
}

const WINDOW = /^(\d+)\s*(hours?|days?|weeks?|months?|h|d|w|m)$/i;
const WINDOW_MS: Readonly<Record<string, number>> = {
  h: HOUR_MS,
  d: DAY_MS,
  w: 7 * DAY_MS,
  m: 30 * DAY_MS,
};

/** `24HOURS`, `7DAYS`, `1WEEK`, `1w`, `2m` (m = months of 30 days) → ms, or undefined. */
export function parseCompareWindow(text: string): number | undefined {
  const m = WINDOW.exec(text.trim());
  if (!m?.[1] || !m[2]) return undefined;
  const unit = WINDOW_MS[m[2][0]?.toLowerCase() ?? ''];
  const n = Number(m[1]);
  return unit === undefined || n <= 0 ? undefined : n * unit;
}

const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;

function bucketStart(ms: number, bucket: string): number {
  const d = new Date(ms);
  switch (bucket) {
    case 'hour':
      return Math.floor(ms / HOUR_MS) * HOUR_MS;
    case 'week': {
      // ISO weeks start on Monday.
      const day = startOfDay(ms);
      return day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
    }
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    default:
      return startOfDay(ms);
  }
}

function valuesOf(field: string, t: ArticleTable, row: number): readonly string[] {
  const accessor = FIELDS[field];
  return accessor?.kind === 'keyword' ? accessor.values(t, row) : [];
}

/** Each value of `field` → the rows that have it. */
function groupBy(field: string, t: ArticleTable, rows: readonly number[]): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const d of rows) {
    for (const v of new Set(valuesOf(field, t, d))) {
      if (v === '') continue;
      const list = m.get(v);
      if (list) list.push(d);
      else m.set(v, [d]);
    }
  }
  return m;
}

function enrich(core: EngineCore, field: string, value: string): string | Record<string, unknown> {
  const { store } = core.index;
  switch (field) {
    case 'entity.id': {
      const e = store.entityById.get(Number(value));
      return e ? { id: e.id, name: e.name, type: e.type } : value;
    }
    case 'source.id': {
      const s = store.sourceById.get(Number(value));
      return s ? { id: s.id, name: s.name, domain: s.domain } : value;
    }
    case 'category.id': {
      const c = store.suggest.categories.find((x) => categorySlug(x.id) === value);
      return c ? { id: value, name: c.name, taxonomy: c.taxonomy } : value;
    }
    case 'topic.id': {
      const t = store.suggest.topics.find((x) => x.id.toLowerCase() === value);
      return t ? { id: t.id, name: t.name } : value;
    }
    case 'industry.id': {
      const i = store.suggest.industries.find((x) => String(x.id) === value);
      return i ? { id: i.id, name: i.name } : value;
    }
    default:
      return value;
  }
}

interface TrendOptions {
  perPage: number;
  offset: number;
  mincount: number;
  sort: string;
  order: 'asc' | 'desc';
  percentile: number | undefined;
  bucket: string | undefined;
  trendingDays: number | undefined;
  compareMs: number | undefined;
}

function trendsFor(
  core: EngineCore,
  field: string,
  candidates: readonly number[],
  window: { from: number; to: number },
  o: TrendOptions,
  ctx: SearchContext,
): { trends: Record<string, unknown>[]; total_count: number; total_articles: number } {
  const t = core.index.table;
  const at = (row: number): number => t.published.data[row] as number;
  const inWindow = candidates.filter((d) => at(d) >= window.from && at(d) <= window.to);
  const groups = groupBy(field, t, inWindow);
  const previous =
    o.compareMs === undefined
      ? undefined
      : groupBy(
          field,
          t,
          candidates.filter(
            (d) => at(d) >= window.from - (o.compareMs as number) && at(d) < window.from,
          ),
        );
  const trendStart = o.trendingDays === undefined ? 0 : window.to - o.trendingDays * DAY_MS;
  const trendingGroups =
    o.trendingDays === undefined
      ? undefined
      : groupBy(
          field,
          t,
          candidates.filter((d) => at(d) > trendStart && at(d) <= window.to),
        );

  let items = [...groups].map(([value, docs]) => {
    let first = Infinity;
    let last = -Infinity;
    for (const d of docs) {
      first = Math.min(first, at(d));
      last = Math.max(last, at(d));
    }
    const item: Record<string, unknown> & { key: string; count: number } = {
      key: value,
      value: ctx.mode === 'test' ? TEST_MODE_TREND_VALUE : enrich(core, field, value),
      count: docs.length,
      percentage: round((100 * docs.length) / Math.max(1, inWindow.length)),
      // Articles per hour over the value's lifetime in the window (at least one hour).
      growth_rate: round(docs.length / Math.max(1, (last - first) / HOUR_MS), 4),
    };
    if (previous) {
      const before = previous.get(value)?.length ?? 0;
      item['previous_count'] = before;
      item['change_absolute'] = docs.length - before;
      item['change_percent'] = round((100 * (docs.length - before)) / Math.max(1, before));
    }
    if (trendingGroups && o.trendingDays !== undefined) {
      const days = o.trendingDays;
      const history: Record<string, number> = {};
      for (let i = days - 1; i >= 0; i--)
        history[new Date(startOfDay(window.to - i * DAY_MS)).toISOString().slice(0, 10)] = 0;
      let recent = 0;
      let earlier = 0;
      const half = window.to - (days / 2) * DAY_MS;
      for (const d of trendingGroups.get(value) ?? []) {
        const k = new Date(startOfDay(at(d))).toISOString().slice(0, 10);
        if (k in history) history[k] = (history[k] ?? 0) + 1;
        if (at(d) > half) recent++;
        else earlier++;
      }
      // Second half of the trending window against the first: above 1 is rising.
      item['trending_score'] = round((recent + 1) / (earlier + 1), 3);
      item['trending_history'] = history;
    }
    if (o.bucket !== undefined) {
      const buckets: Record<string, number> = {};
      for (const d of [...docs].sort((a, b) => at(a) - at(b))) {
        const k = new Date(bucketStart(at(d), o.bucket)).toISOString();
        buckets[k] = (buckets[k] ?? 0) + 1;
      }
      item['buckets'] = buckets;
      item['total'] = docs.length;
    }
    return item;
  });
  items = items.filter((i) => i.count >= o.mincount);
  if (o.percentile !== undefined && items.length > 0) {
    const counts = items.map((i) => i.count).sort((a, b) => a - b);
    const threshold = counts[Math.max(0, Math.ceil((o.percentile / 100) * counts.length) - 1)] ?? 0;
    items = items.filter((i) => i.count >= threshold);
  }
  const sortKey = (i: (typeof items)[number]): number | string => {
    switch (o.sort) {
      case 'value':
        return i.key;
      case 'growth_rate':
        return Number(i['growth_rate']);
      case 'change':
        return Number(i['change_absolute'] ?? i.count);
      case 'trending_score':
        return Number(i['trending_score'] ?? i.count);
      default:
        return i.count;
    }
  };
  const dir = o.order === 'asc' ? 1 : -1;
  items.sort((a, b) => {
    const ka = sortKey(a);
    const kb = sortKey(b);
    const c =
      typeof ka === 'string' || typeof kb === 'string'
        ? String(ka).localeCompare(String(kb))
        : ka - kb;
    return c * dir || b.count - a.count || a.key.localeCompare(b.key);
  });
  const page = items.slice(o.offset, o.offset + o.perPage).map(({ key: _key, ...rest }) => rest);
  return { trends: page, total_count: items.length, total_articles: inWindow.length };
}

/**
 * /v1/news/trends: counts of each value of `field` over the matching articles of
 * the window (default and maximum: the 30 days before published_at.end or now),
 * with percentage and growth rate; optional time buckets, trending analysis and
 * comparison with the preceding window. Test keys get a placeholder for each
 * value and the real numbers (spec, Authentication 5). 1 point.
 */
export function trends(core: EngineCore, params: Params, ctx: SearchContext): EngineResult {
  const own = parseParams(params, TREND_PARAMS).values;
  const prepared = prepareRequest(core, params, ctx, {
    defs: [...TREND_FILTERS, ...DATE_DEFS],
    valuesOnly: new Set(DATE_DEFS.map((d) => d.name)),
  });
  const field = own.get('field');
  // `field` is required (openapi: "Required."): without a usable one there is
  // nothing to aggregate, so a 400 as for any missing required parameter, not a default.
  if (field === undefined) {
    const sent = params['field'] !== undefined && params['field'] !== '';
    throw new MockHttpError(
      400,
      undefined,
      sent
        ? `The field parameter must name one to five of ${MOCK_TREND_FIELDS.join(', ')}.`
        : `The field parameter is required: one to five of ${MOCK_TREND_FIELDS.join(', ')}.`,
    );
  }
  const fields = listOf(field);
  const window = windowOf(prepared.values, ctx.now.getTime());
  const compareWindow = own.get('compare') === '1' ? own.get('compare_window') : undefined;
  const compareMs =
    compareWindow === undefined ? undefined : parseCompareWindow(String(compareWindow));
  const o: TrendOptions = {
    perPage: Number(own.get('per_page') ?? 10),
    offset: Number(own.get('offset') ?? 0),
    mincount: Number(own.get('mincount') ?? 1),
    sort: String(own.get('sort') ?? 'count'),
    order: (own.get('order') as 'asc' | 'desc' | undefined) ?? 'desc',
    percentile: own.has('percentile') ? Number(own.get('percentile')) : undefined,
    bucket: own.has('time_bucket') ? String(own.get('time_bucket')) : undefined,
    trendingDays: own.get('trending') === '1' ? Number(own.get('trending_days') ?? 14) : undefined,
    compareMs,
  };
  const candidates = select(prepared, core.index.table.order);
  const head: Record<string, unknown> = { status: 'ok' };
  const results = fields.map((f) => [f, trendsFor(core, f, candidates, window, o, ctx)] as const);
  const [single] = results;
  if (results.length === 1 && single) {
    Object.assign(head, {
      field: single[0],
      per_page: o.perPage,
      offset: o.offset,
      total_count: single[1].total_count,
      total_articles: single[1].total_articles,
    });
  } else {
    Object.assign(head, { fields, per_page: o.perPage, offset: o.offset });
  }
  Object.assign(head, { sort: o.sort, order: o.order, mincount: o.mincount });
  if (o.percentile !== undefined) head['percentile'] = o.percentile;
  if (o.bucket !== undefined) head['time_bucket'] = o.bucket;
  if (compareMs !== undefined) head['compare_window'] = String(compareWindow);
  if (o.trendingDays !== undefined) head['trending_days'] = o.trendingDays;
  head['cached'] = false;
  head['trends'] = results.length === 1 && single ? single[1].trends : Object.fromEntries(results);
  head['request_id'] = ctx.requestId;
  if (prepared.prompt) head['meta'] = { prompt: prepared.prompt };
  return { body: head, points: searchPoints(prepared, ctx) };
}
