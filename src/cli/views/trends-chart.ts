/**
 * The terminal view of POST /v1/news/trends: per aggregated field, each value
 * with its count, share, growth and a bar (or, with --time-bucket, a sparkline
 * of its buckets). Pure: (groups, width) → text.
 */
import {
  type DrawColumn,
  drawRows,
  frameWidth,
  textWidth,
} from '../../output/formats/table-draw.js';
import { terminalSafe } from '../../output/text.js';
import { bar, formatChange, formatCount, sparkline } from './bars.js';
import { type Json, arr, label, num, obj, str } from './read.js';

export interface TrendGroup {
  readonly field: string;
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
  if (Array.isArray(trends)) {
    return [
      {
        field: str(root['field']) ?? str(arr(root['fields'])[0]) ?? 'value',
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
  const w = Math.max(50, width);
  const out: string[] = [];
  for (const group of groups) {
    if (out.length > 0) out.push('');
    const facts = [
      group.totalCount === undefined ? undefined : `${formatCount(group.totalCount)} values`,
      group.totalArticles === undefined
        ? undefined
        : `${formatCount(group.totalArticles)} articles`,
    ].filter(Boolean);
    out.push([group.field, ...facts].join(' · '));
    if (group.trends.length === 0) {
      out.push('  (no values)');
      continue;
    }
    out.push(...rows(group.trends, w));
  }
  return `${out.join('\n')}\n`;
}

function growthOf(t: Json): string {
  const change = num(t['change_percent']);
  if (change !== undefined) return formatChange(change);
  const rate = num(t['growth_rate']);
  return rate === undefined ? '' : `${Math.round(rate * 100) / 100}/h`;
}

function bucketValues(t: Json): number[] | undefined {
  const buckets = obj(t['buckets']);
  if (!buckets) return undefined;
  return Object.keys(buckets)
    .sort()
    .map((k) => num(buckets[k]) ?? num(obj(buckets[k])?.['count']) ?? 0);
}

type Middle = 'type' | 'count' | 'pct' | 'growth';

function rows(trends: readonly Json[], width: number): string[] {
  const chartW = Math.max(8, Math.min(30, Math.floor(width / 4)));
  const max = Math.max(...trends.map((t) => num(t['count']) ?? 0));
  const cells = trends.map((t) => {
    const value = t['value'];
    const count = num(t['count']) ?? 0;
    const pct = num(t['percentage']);
    const buckets = bucketValues(t);
    return {
      label: terminalSafe(label(value) ?? '?'),
      type: terminalSafe(str(obj(value)?.['type']) ?? ''),
      count: formatCount(count),
      pct: pct === undefined ? '' : `${pct}%`,
      growth: growthOf(t),
      chart: buckets ? sparkline(buckets.slice(-chartW)) : bar(count, max, chartW),
    };
  });
  const widest = (key: Middle) => Math.max(0, ...cells.map((c) => textWidth(c[key])));
  // Between label and chart: the type, count, share and growth columns that some row has.
  const candidates: (DrawColumn & { key: Middle })[] = [
    { key: 'type', width: Math.min(14, widest('type')), align: 'left' },
    { key: 'count', width: widest('count'), align: 'right' },
    { key: 'pct', width: widest('pct'), align: 'right' },
    { key: 'growth', width: widest('growth'), align: 'right' },
  ];
  const middle = candidates.filter((c) => c.width > 0);
  // The two-space indent, the middle columns, the chart and the gaps between them all.
  const fixed =
    2 + middle.reduce((sum, c) => sum + c.width, 0) + chartW + frameWidth(middle.length + 2);
  const labelW = Math.max(10, Math.min(36, width - fixed));
  return drawRows(
    [{ width: labelW, align: 'left' }, ...middle, { width: chartW, align: 'left' }],
    cells.map((c) => [c.label, ...middle.map((m) => c[m.key]), c.chart]),
  ).map((l) => `  ${l}`);
}
