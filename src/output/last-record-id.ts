/**
 * The id of the last complete record of a file a stream writes as articles
 * arrive (jsonl, ndjson, csv, tsv). A stream killed between writing a batch
 * and saving its position left that batch in the file with the state one
 * step behind: a restart reads the id here and resumes after the larger of
 * the two, so nothing is written twice whatever moment the kill landed on.
 * Only the last record (and, for csv and tsv, the header naming the `id`
 * column) is read; a torn record after it is not a record.
 */
import { open } from 'node:fs/promises';
import { lastRecord } from './complete-records.js';
import type { FormatName } from './types.js';

/** A record longer than this is not an article this tool wrote: nothing is read from it. */
const MAX_RECORD_BYTES = 8 * 1024 * 1024;
const MAX_HEADER_BYTES = 64 * 1024;

/** The formats whose last record tells an id. */
export function tellsLastId(format: FormatName): boolean {
  return format === 'jsonl' || format === 'ndjson' || format === 'csv' || format === 'tsv';
}

/**
 * The id (digits) of the file's last complete record, or undefined: no
 * file, no record, no `id` in it (`--fields` without id), or not a number.
 */
export async function lastRecordId(path: string, format: FormatName): Promise<string | undefined> {
  if (!tellsLastId(format)) return undefined;
  let span: { start: number; end: number };
  try {
    span = await lastRecord(path, format === 'csv' ? 'csv' : 'line');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const { start, end } = span;
  if (end === start || end - start > MAX_RECORD_BYTES) return undefined;
  const text = (await readRange(path, start, end)).replace(/\r?\n$/, '');
  let id: unknown;
  if (format === 'jsonl' || format === 'ndjson') {
    try {
      const record = JSON.parse(text) as unknown;
      id =
        typeof record === 'object' && record !== null
          ? (record as Record<string, unknown>)['id']
          : undefined;
    } catch {
      return undefined;
    }
  } else {
    // The first record is the header; a file holding only it has no article.
    if (start === 0) return undefined;
    const head = await readRange(path, 0, Math.min(start, MAX_HEADER_BYTES));
    const headerLine = head.slice(0, head.indexOf('\n') === -1 ? head.length : head.indexOf('\n'));
    const split = format === 'csv' ? csvFields : (line: string) => line.split('\t');
    const column = split(headerLine.replace(/\r$/, '')).indexOf('id');
    if (column === -1) return undefined;
    id = split(text)[column];
  }
  const value = typeof id === 'number' ? String(id) : id;
  return typeof value === 'string' && /^\d+$/.test(value) ? value : undefined;
}

async function readRange(path: string, start: number, end: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(end - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The fields of one csv record as the csv writer writes them (quotes doubled inside quotes). */
export function csvFields(record: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (record[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = record.indexOf('"', i);
        if (quote === -1) {
          value += record.slice(i);
          i = record.length;
          break;
        }
        value += record.slice(i, quote);
        if (record[quote + 1] === '"') {
          value += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      out.push(value);
    } else {
      const comma = record.indexOf(',', i);
      const stop = comma === -1 ? record.length : comma;
      out.push(record.slice(i, stop));
      i = stop;
    }
    if (record[i] !== ',') return out;
    i++;
  }
}
