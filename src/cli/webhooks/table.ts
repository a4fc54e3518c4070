/**
 * `news webhooks list` on a terminal: one aligned line per webhook (as `gh`
 * lists things), the filters as `name=value` pairs in the last column, which
 * takes the room the others leave. Other formats get the records as they are.
 */
import {
  type DrawColumn,
  drawRows,
  frameWidth,
  textWidth,
} from '../../output/formats/table-draw.js';
import type { ApiRecord } from '../../output/types.js';
import { terminalSafe } from '../../output/text.js';

function filtersText(filters: unknown): string {
  if (typeof filters !== 'object' || filters === null) return '';
  const text = Object.entries(filters)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return text === '' ? '(none: every article)' : text;
}

const HEADERS = ['ID', 'STATUS', 'FAILS', 'URL', 'FILTERS'];
/** The widest each column but the last may be; FILTERS takes the rest. */
const CAPS = [12, 10, 5, 48];

export function webhookTable(records: readonly ApiRecord[], width: number): string {
  const rows = records.map((r) =>
    [
      String(r['id'] ?? ''),
      String(r['status'] ?? ''),
      String(r['consecutive_failures'] ?? ''),
      String(r['url'] ?? ''),
      filtersText(r['filters']),
    ].map(terminalSafe),
  );
  const columns: DrawColumn[] = CAPS.map((cap, i) => ({
    width: Math.min(cap, Math.max(...[HEADERS, ...rows].map((row) => textWidth(row[i]!)))),
    align: 'left',
  }));
  const used = columns.reduce((sum, c) => sum + c.width, 0) + frameWidth(HEADERS.length);
  columns.push({ width: Math.max(12, width - used), align: 'left' });
  return `${drawRows(columns, [HEADERS, ...rows]).join('\n')}\n`;
}
