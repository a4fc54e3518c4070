import type { QueryError } from './errors.js';

const WIDTH = 72;

/**
 * Two lines for the terminal: the query (or the part of it around the fault, with
 * "…" where it was cut) and a line of carets under the fault. Line breaks and tabs
 * show as spaces so the caret stays under its character.
 */
export function caretLine(text: string, error: Pick<QueryError, 'position' | 'length'>): string {
  const pos = Math.max(0, Math.min(error.position, text.length));
  const len = Math.max(1, Math.min(error.length, WIDTH / 2));
  let start = 0;
  let end = text.length;
  if (end - start > WIDTH) {
    start = Math.max(0, pos - WIDTH / 3);
    end = Math.min(text.length, start + WIDTH);
  }
  const prefix = start > 0 ? '…' : '';
  const suffix = end < text.length ? '…' : '';
  const shown = text.slice(start, end).replace(/[\t\n\r\v\f]/g, ' ');
  const pad = ' '.repeat(prefix.length + (pos - start));
  return `${prefix}${shown}${suffix}\n${pad}${'^'.repeat(len)}`;
}
