import { SEARCH_PARAMS } from './search-params.js';
import { type ParamDef, paramsOf } from './types.js';

/**
 * Request body of POST /v1/news/trends, from spec/openapi.json (the
 * specification only says it takes `field`). The aggregation parameters are
 * declared here; the filters it shares with search are taken from the search
 * table so their checks stay identical.
 */

export const TREND_FIELDS = [
  'source.id',
  'category.id',
  'topic.id',
  'industry.id',
  'entity.id',
] as const;

const SWITCH01 = ['0', '1', 'true', 'false'] as const;

// Grouped with facets in --help: both are aggregations over matching articles.
const t = paramsOf('Facets');

export const TRENDS_AGGREGATION_PARAMS: readonly ParamDef[] = [
  t('field', 'string', 'fields to aggregate (required)', { list: 5, enum: TREND_FIELDS }),
  t('per_page', 'integer', 'results per field', { min: 1, max: 100, default: 10 }),
  t('offset', 'integer', 'skip this many values (paging)', { min: 0, default: 0 }),
  t('mincount', 'integer', 'minimum article count of a value', { min: 1, max: 10000, default: 1 }),
  t('sort', 'string', 'sort by (change and trending_score need --compare 1)', {
    enum: ['count', 'value', 'growth_rate', 'change', 'trending_score'],
    default: 'count',
  }),
  t('order', 'string', 'sort direction', { enum: ['asc', 'desc'], default: 'desc' }),
  t('time_bucket', 'string', 'time-series breakdown per bucket', {
    enum: ['hour', 'day', 'week', 'month'],
  }),
  t('trending', 'switch', 'trending analysis with growth rates', { enum: SWITCH01 }),
  t('trending_days', 'integer', 'days of the trending window', { min: 7, max: 30, default: 14 }),
  t('compare', 'switch', 'compare with an earlier window (needs --compare-window)', {
    enum: SWITCH01,
  }),
  t('compare_window', 'string', 'the comparison window: 24HOURS, 7DAYS, 1WEEK, 1w, 2m'),
  t('percentile', 'integer', 'only values above this percentile', { min: 1, max: 100 }),
];

/** The search filters the trends request schema also lists. */
export const TRENDS_FILTER_NAMES = [
  'prompt',
  'published_at',
  'published_at.start',
  'published_at.end',
  'language.code',
  'ignore.language.code',
  'source.country.code',
  'ignore.source.country.code',
  'source.rank.opr.min',
  'source.rank.opr.max',
  'source.id',
  'ignore.source.id',
  'source.domain',
  'ignore.source.domain',
  'source.bias',
  'ignore.source.bias',
  'category.id',
  'ignore.category.id',
  'topic.id',
  'ignore.topic.id',
  'industry.id',
  'ignore.industry.id',
  'entity.id',
  'ignore.entity.id',
  'entity.sentiment.polarity',
  'entity.sentiment.score.min',
  'entity.sentiment.score.max',
  'is_duplicate',
  'is_breaking',
];

export const TRENDS_PARAMS: readonly ParamDef[] = [
  ...TRENDS_AGGREGATION_PARAMS,
  ...TRENDS_FILTER_NAMES.map((name) => {
    const def = SEARCH_PARAMS.find((d) => d.name === name);
    if (def === undefined) throw new Error(`trends-params: ${name} is not in the search table`);
    return def;
  }),
];
