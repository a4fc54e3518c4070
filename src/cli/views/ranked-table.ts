import {
  type DrawColumn,
  drawRows,
  frameWidth,
  textWidth,
} from '../../output/formats/table-draw.js';
import { terminalSafe } from '../../output/text.js';
import { bar, formatCount } from './bars.js';

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
  const extras = shown.map((r) => terminalSafe(r.extra ?? ''));
  const countWidth = Math.max(...counts.map(textWidth));
  const extraWidth = Math.min(22, Math.max(0, ...extras.map(textWidth)));
  const barWidth = Math.max(4, Math.min(20, Math.floor(width / 5)));
  // The two-space indent and the gaps between three or four columns.
  const frame = 2 + frameWidth(extraWidth > 0 ? 4 : 3);
  const labelWidth = Math.max(8, Math.min(32, width - frame - extraWidth - countWidth - barWidth));
  const max = Math.max(...shown.map((r) => r.count));
  const columns: DrawColumn[] = [
    { width: labelWidth, align: 'left' },
    ...(extraWidth > 0 ? [{ width: extraWidth, align: 'left' } as const] : []),
    { width: countWidth, align: 'right' },
    { width: barWidth, align: 'left' },
  ];
  const lines = drawRows(
    columns,
    shown.map((row, i) => [
      terminalSafe(row.label),
      ...(extraWidth > 0 ? [extras[i]!] : []),
      counts[i]!,
      bar(row.count, max, barWidth),
    ]),
  );
  return [
    `${title}${rows.length > shown.length ? ` (${shown.length} of ${rows.length})` : ''}`,
    ...lines.map((l) => `  ${l}`),
  ];
}
