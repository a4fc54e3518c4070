/**
 * Width-aware text helpers for the terminal views: everything a server sends
 * passes through `terminalSafe` first, so a hostile name cannot move the cursor.
 */
import { terminalSafe } from '../../output/text.js';

/** Cuts to `width` columns, marking the cut with an ellipsis. */
export function fit(text: string, width: number): string {
  const safe = terminalSafe(text);
  if (width <= 0) return '';
  if (safe.length <= width) return safe;
  return width === 1 ? '…' : `${safe.slice(0, width - 1)}…`;
}

/** Pads or cuts to exactly `width` columns. */
export function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fitted = fit(text, width);
  return align === 'left' ? fitted.padEnd(width) : fitted.padStart(width);
}

/** Word-wraps into lines of at most `width` columns; at most `maxLines`, the last one cut with an ellipsis. */
export function wrap(text: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  const words = terminalSafe(text)
    .split(' ')
    .filter((w) => w !== '');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (candidate.length <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word.length > width ? fit(word, width) : word;
  }
  if (line !== '') lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1] ?? '';
  kept[maxLines - 1] = last.length < width ? `${last}…` : `${last.slice(0, width - 1)}…`;
  return kept;
}

/** `label  value` lines with the labels in one column; values wrap under themselves. */
export function fieldLines(
  rows: readonly (readonly [string, string])[],
  width: number,
  indent = '',
): string[] {
  if (rows.length === 0) return [];
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const valueWidth = Math.max(10, width - indent.length - labelWidth - 2);
  const out: string[] = [];
  for (const [label, value] of rows) {
    const lines = wrap(value, valueWidth, 4);
    lines.forEach((line, i) => {
      out.push(`${indent}${(i === 0 ? label : '').padEnd(labelWidth)}  ${line}`);
    });
  }
  return out;
}
