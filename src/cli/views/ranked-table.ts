import { bar, formatCount } from './bars.js';
import { cell } from './text-layout.js';

export interface RankedRow {
  readonly label: string;
  /** A second column: a domain, a country code, an entity type. */
  readonly extra?: string | undefined;
  readonly count: number;
}

/**
 * A titled top-N list: label, optional extra column, count and a bar scaled to
 * the largest count. The card shows the first few; `--section` exports them all.
 */
export function rankedTable(
  title: string,
  rows: readonly RankedRow[],
  width: number,
  limit = 5,
): string[] {
  if (rows.length === 0) return [];
  const shown = rows.slice(0, limit);
  const counts = shown.map((r) => formatCount(r.count));
  const countWidth = Math.max(...counts.map((c) => c.length));
  const extraWidth = Math.min(22, Math.max(0, ...shown.map((r) => r.extra?.length ?? 0)));
  const barWidth = Math.max(4, Math.min(20, Math.floor(width / 5)));
  const gaps = 2 + 2 + (extraWidth > 0 ? 2 : 0) + 2;
  const labelWidth = Math.max(8, Math.min(32, width - gaps - extraWidth - countWidth - barWidth));
  const max = Math.max(...shown.map((r) => r.count));
  const lines = [
    `${title}${rows.length > shown.length ? ` (${shown.length} of ${rows.length})` : ''}`,
  ];
  shown.forEach((row, i) => {
    const parts = [`  ${cell(row.label, labelWidth)}`];
    if (extraWidth > 0) parts.push(cell(row.extra ?? '', extraWidth));
    parts.push(counts[i]!.padStart(countWidth), bar(row.count, max, barWidth));
    lines.push(parts.join('  ').trimEnd());
  });
  return lines;
}
