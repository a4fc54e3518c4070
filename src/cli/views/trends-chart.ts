/**
 * The terminal view of POST /v1/news/trends: per aggregated field, each value
 * with its count, share, growth and a bar (or, with --time-bucket, a sparkline
 * of its buckets). Pure: (groups, width) → text.
 */
import { bar, formatChange, formatCount, sparkline } from './bars.js';
import { type Json, arr, label, num, obj, str } from './read.js';
import { cell } from './text-layout.js';

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

function rows(trends: readonly Json[], width: number): string[] {
  const data = trends.map((t) => {
    const value = t['value'];
    return {
      label: label(value) ?? '?',
      type: str(obj(value)?.['type']) ?? '',
      count: num(t['count']) ?? 0,
      pct: num(t['percentage']),
      growth: growthOf(t),
      buckets: bucketValues(t),
    };
  });
  const countW = Math.max(...data.map((d) => formatCount(d.count).length));
  const pctW = Math.max(0, ...data.map((d) => (d.pct === undefined ? 0 : `${d.pct}%`.length)));
  const growthW = Math.max(0, ...data.map((d) => d.growth.length));
  const typeW = Math.min(14, Math.max(0, ...data.map((d) => d.type.length)));
  const chartW = Math.max(8, Math.min(30, Math.floor(width / 4)));
  const fixed =
    2 +
    [typeW, countW, pctW, growthW].filter((x) => x > 0).reduce((a, b) => a + b + 2, 0) +
    2 +
    chartW;
  const labelW = Math.max(10, Math.min(36, width - fixed));
  const max = Math.max(...data.map((d) => d.count));
  return data.map((d) => {
    const parts = [`  ${cell(d.label, labelW)}`];
    if (typeW > 0) parts.push(cell(d.type, typeW));
    parts.push(formatCount(d.count).padStart(countW));
    if (pctW > 0) parts.push((d.pct === undefined ? '' : `${d.pct}%`).padStart(pctW));
    if (growthW > 0) parts.push(d.growth.padStart(growthW));
    parts.push(d.buckets ? sparkline(d.buckets.slice(-chartW)) : bar(d.count, max, chartW));
    return parts.join('  ').trimEnd();
  });
}
