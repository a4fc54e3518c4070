/**
 * The terminal view of POST /v1/news/trends: per aggregated field, each value
 * with its count, share, growth and a bar (or, with --time-bucket, a sparkline
 * of its buckets). Pure: (groups, width) → text.
 */
import { drawRows, fitText, textWidth } from '../../output/formats/table-draw.js';
import { terminalSafe, thousands } from '../../output/text.js';
import { bar, formatChange, sparkline } from './bars.js';
import { type Json, arr, label, num, obj, str } from './read.js';
import { MIN_WIDTH, fitColumns } from './text-layout.js';
import { alignedBuckets } from './time-axis.js';

export interface TrendGroup {
  readonly field: string;
  /** The response's `time_bucket` (hour, day, week, month), when buckets were asked for. */
  readonly timeBucket?: string | undefined;
  readonly totalCount: number | undefined;
  readonly totalArticles: number | undefined;
  readonly trends: readonly Json[];
}

/**
 * The response's one shape or the other: a single field has `trends` as an
 * array; several fields have it as an object keyed by field (OpenAPI oneOf).
 */
export function trendGroups(body: unknown): TrendGroup[] {
  const root = obj(body) ?? {};
  const items = (v: unknown) =>
    arr(v)
      .map(obj)
      .filter((o): o is Json => o !== undefined);
  const trends = root['trends'];
  const timeBucket = str(root['time_bucket']);
  if (Array.isArray(trends)) {
    return [
      {
        field: str(root['field']) ?? str(arr(root['fields'])[0]) ?? 'value',
        timeBucket,
        totalCount: num(root['total_count']),
        totalArticles: num(root['total_articles']),
        trends: items(trends),
      },
    ];
  }
  return Object.entries(obj(trends) ?? {}).map(([field, group]) => {
    const g = obj(group) ?? {};
    return {
      field,
      timeBucket,
      totalCount: num(g['total_count']),
      totalArticles: num(g['total_articles']),
      trends: items(g['trends']),
    };
  });
}

/** The trend items as export records, each tagged with its field. */
export function trendRecords(groups: readonly TrendGroup[]): Json[] {
  return groups.flatMap((g) => g.trends.map((t) => ({ field: g.field, ...t })));
}

export function renderTrends(groups: readonly TrendGroup[], width: number): string {
  const w = Math.max(MIN_WIDTH, width);
  const out: string[] = [];
  for (const group of groups) {
    if (out.length > 0) out.push('');
    const facts = [
      group.totalCount === undefined ? undefined : `${thousands(group.totalCount)} values`,
      group.totalArticles === undefined ? undefined : `${thousands(group.totalArticles)} articles`,
    ].filter(Boolean);
    out.push(fitText([group.field, ...facts].join(' · '), w));
    if (group.trends.length === 0) {
      out.push('  (no values)');
      continue;
    }
    out.push(...rows(group.trends, alignedBuckets(group.trends, group.timeBucket), w));
  }
  return `${out.join('\n')}\n`;
}

function growthOf(t: Json): string {
  const change = num(t['change_percent']);
  if (change !== undefined) return formatChange(change);
  const rate = num(t['growth_rate']);
  return rate === undefined ? '' : `${Math.round(rate * 100) / 100}/h`;
}

type Side = 'type' | 'count' | 'pct' | 'growth' | 'chart';
const ALIGN: Record<Side, 'left' | 'right'> = {
  type: 'left',
  count: 'right',
  pct: 'right',
  growth: 'right',
  chart: 'left',
};

/** `buckets`: each row's counts on one shared time axis (time-axis.ts), so the sparklines line up. */
function rows(
  trends: readonly Json[],
  buckets: readonly (number[] | undefined)[],
  width: number,
): string[] {
  const max = Math.max(...trends.map((t) => num(t['count']) ?? 0));
  const cells = trends.map((t, i) => {
    const value = t['value'];
    const count = num(t['count']) ?? 0;
    const pct = num(t['percentage']);
    return {
      label: terminalSafe(label(value) ?? '?'),
      type: terminalSafe(str(obj(value)?.['type']) ?? ''),
      count: thousands(count),
      pct: pct === undefined ? '' : `${pct}%`,
      growth: growthOf(t),
      chart: (w: number) => {
        const values = buckets[i];
        return values ? sparkline(values.slice(-w)) : bar(count, max, w);
      },
    };
  });
  const widest = (key: Exclude<Side, 'chart'>) =>
    Math.max(0, ...cells.map((c) => textWidth(c[key])));
  // After the two-space indent: the label, then the type, count, share and
  // growth columns that some row has, then the chart. Narrower than they all
  // need, the chart and the type shrink, then go, then growth and share.
  const fit = fitColumns(
    width - 2,
    { min: 10, max: 36 },
    [
      { key: 'type', width: Math.min(14, widest('type')) },
      { key: 'count', width: widest('count') },
      { key: 'pct', width: widest('pct') },
      { key: 'growth', width: widest('growth') },
      { key: 'chart', width: Math.max(8, Math.min(30, Math.floor(width / 4))) },
    ],
    [
      ['chart', 8],
      ['type', 8],
      ['chart', 0],
      ['type', 0],
      ['growth', 0],
      ['pct', 0],
    ],
  );
  return drawRows(
    [
      { width: fit.label, align: 'left' },
      ...fit.columns.map((c) => ({ width: c.width, align: ALIGN[c.key] })),
    ],
    cells.map((c) => [
      c.label,
      ...fit.columns.map((col) => (col.key === 'chart' ? c.chart(col.width) : c[col.key])),
    ]),
  ).map((l) => `  ${l}`);
}
