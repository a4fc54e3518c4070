import { drawRows, fitText, textWidth } from '../../output/formats/table-draw.js';
import { terminalSafe, thousands } from '../../output/text.js';
import { bar } from './bars.js';
import { fitColumns } from './text-layout.js';

const ALIGN = { extra: 'left', count: 'right', bar: 'left' } as const;

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
  const counts = shown.map((r) => thousands(r.count));
  const extras = shown.map((r) => terminalSafe(r.extra ?? ''));
  const max = Math.max(...shown.map((r) => r.count));
  // After the two-space indent: label, extra, count, bar. Narrow, the bar
  // and the extra column shrink, then go; the count stays.
  const fit = fitColumns(
    width - 2,
    { min: 8, max: 32 },
    [
      { key: 'extra', width: Math.min(22, Math.max(0, ...extras.map(textWidth))) },
      { key: 'count', width: Math.max(...counts.map(textWidth)) },
      { key: 'bar', width: Math.max(4, Math.min(20, Math.floor(width / 5))) },
    ],
    [
      ['bar', 4],
      ['extra', 8],
      ['bar', 0],
      ['extra', 0],
    ],
  );
  const lines = drawRows(
    [
      { width: fit.label, align: 'left' },
      ...fit.columns.map((c) => ({ width: c.width, align: ALIGN[c.key] })),
    ],
    shown.map((row, i) => [
      terminalSafe(row.label),
      ...fit.columns.map((c) =>
        c.key === 'extra'
          ? extras[i]!
          : c.key === 'count'
            ? counts[i]!
            : bar(row.count, max, c.width),
      ),
    ]),
  );
  return [
    fitText(
      `${title}${rows.length > shown.length ? ` (${shown.length} of ${rows.length})` : ''}`,
      width,
    ),
    ...lines.map((l) => `  ${l}`),
  ];
}
