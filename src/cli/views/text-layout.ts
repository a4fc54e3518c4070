/**
 * Width-aware text helpers for the terminal views, on the tables' drawer
 * (output/formats/table-draw.ts): measured with `textWidth`, cut with
 * `fitText`, columns drawn by cli-table3. Everything a server sends passes
 * through `terminalSafe` first, so a hostile name cannot move the cursor.
 */
import { drawRows, fitText, frameWidth, textWidth } from '../../output/formats/table-draw.js';
import { terminalSafe } from '../../output/text.js';

/** Word-wraps into lines of at most `width` columns; at most `maxLines`, the last one cut with an ellipsis. */
export function wrap(text: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  const words = terminalSafe(text)
    .split(' ')
    .filter((w) => w !== '');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (textWidth(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = fitText(word, width);
  }
  if (line !== '') lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = fitText(`${kept[maxLines - 1] ?? ''}…`, width);
  return kept;
}

/** `label  value` lines with the labels in one column; values wrap under themselves. */
export function fieldLines(rows: readonly (readonly [string, string])[], width: number): string[] {
  if (rows.length === 0) return [];
  const labelWidth = Math.max(...rows.map(([label]) => textWidth(label)));
  const valueWidth = Math.max(10, width - labelWidth - 2);
  return drawRows(
    [
      { width: labelWidth, align: 'left' },
      { width: valueWidth, align: 'left' },
    ],
    rows.flatMap(([label, value]) =>
      wrap(value, valueWidth, 4).map((line, i) => [i === 0 ? label : '', line]),
    ),
  );
}

/** One column beside a view's label: its width, and the key a giving-way step names it by. */
export interface SideColumn<K extends string> {
  readonly key: K;
  readonly width: number;
}

/**
 * Fits a row of columns into `width`: the label takes what is left, at most
 * `label.max`; while that is less than `label.min`, the other columns give
 * way, one step at a time in the order given: `[key, n]` narrows a column to
 * n (0 drops it). A column dropped or narrowed keeps the rest whole, so a
 * narrow terminal loses the chart before the numbers. Gaps are the plain
 * tables' two spaces.
 */
export function fitColumns<K extends string>(
  width: number,
  label: { readonly min: number; readonly max: number },
  columns: readonly SideColumn<K>[],
  giveWay: readonly (readonly [K, number])[],
): { label: number; columns: SideColumn<K>[] } {
  let kept = columns.filter((c) => c.width > 0);
  const room = () =>
    width - kept.reduce((sum, c) => sum + c.width, 0) - frameWidth(kept.length + 1);
  for (const [key, to] of giveWay) {
    if (room() >= label.min) break;
    kept = kept
      .map((c) => (c.key === key ? { key, width: Math.min(c.width, to) } : c))
      .filter((c) => c.width > 0);
  }
  return { label: Math.max(1, Math.min(label.max, room())), columns: kept };
}

/** The narrowest the views lay out for: at this width or more, no line of theirs is wider. */
export const MIN_WIDTH = 30;
