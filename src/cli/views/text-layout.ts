/**
 * Width-aware text helpers for the terminal views, on the tables' drawer
 * (output/formats/table-draw.ts): measured with `textWidth`, cut with
 * `fitText`, columns drawn by cli-table3. Everything a server sends passes
 * through `terminalSafe` first, so a hostile name cannot move the cursor.
 */
import { drawRows, fitText, textWidth } from '../../output/formats/table-draw.js';
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
