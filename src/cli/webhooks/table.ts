/**
 * `news webhooks list` on a terminal: one aligned line per webhook (as `gh`
 * lists things), the filters as `name=value` pairs in the last column, which
 * takes the room the others leave. Other formats get the records as they are.
 */
import type { ApiRecord } from '../../output/types.js';
import { cell, fit } from '../views/text-layout.js';

function filtersText(filters: unknown): string {
  if (typeof filters !== 'object' || filters === null) return '';
  const text = Object.entries(filters)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return text === '' ? '(none: every article)' : text;
}

export function webhookTable(records: readonly ApiRecord[], width: number): string {
  const rows = records.map((r) => [
    String(r['id'] ?? ''),
    String(r['status'] ?? ''),
    String(r['consecutive_failures'] ?? ''),
    String(r['url'] ?? ''),
    filtersText(r['filters']),
  ]);
  const headers = ['ID', 'STATUS', 'FAILS', 'URL', 'FILTERS'];
  const widthOf = (i: number, cap: number) =>
    Math.min(cap, Math.max(headers[i]!.length, ...rows.map((r) => r[i]!.length)));
  const fixed = [widthOf(0, 12), widthOf(1, 10), widthOf(2, 5), widthOf(3, 48)];
  const used = fixed.reduce((a, b) => a + b + 2, 0);
  const rest = Math.max(12, width - used);
  const line = (cells: readonly string[]) =>
    [...fixed.map((w, i) => cell(cells[i]!, w)), fit(cells[4]!, rest)].join('  ').trimEnd();
  return `${[line(headers), ...rows.map(line)].join('\n')}\n`;
}
