/**
 * A batch into its staging tables with `COPY … FROM STDIN` in PostgreSQL's
 * text format: one line per row, columns separated by tabs, `\N` for NULL,
 * and backslash, newline, carriage return and tab escaped in values. A
 * value goes in as its column's text: JSON for nested values, `t`/`f` for
 * booleans, timestamps as the service wrote them (the server parses them;
 * one it cannot read fails the batch). Lines go out in chunks of 64 KiB
 * (pipeline.ts), with the socket's backpressure: the server parses the
 * first while the next are made (a page of articles is about 600 KB, one
 * chunk of a megabyte would have made it wait for the whole), and memory
 * stays near the batch.
 */
import type { FieldDef, SqlType } from '../database/fields.js';
import type { TableSpec } from '../database/schema.js';
import type { ApiRecord } from '../../types.js';

const CHUNK = 1 << 16;

/** A batch's rows as COPY text for the main table and each child table, and their ids. */
export interface BatchRows {
  readonly ids: readonly unknown[];
  main(columns: readonly FieldDef[]): Iterable<string | Uint8Array>;
  child(spec: TableSpec, columns: readonly FieldDef[]): Iterable<string | Uint8Array>;
}
const SPECIAL = /[\\\n\r\t\0]/;
const ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\0': '',
};

const BACKSLASH = /\\/g;

/** JSON's `\u0000` escape: PostgreSQL's text and jsonb cannot hold NUL, so it is dropped. */
const NUL_ESCAPE = /((?:^|[^\\])(?:\\\\)*)\\u0000/g;

function copyEscape(text: string): string {
  return SPECIAL.test(text) ? text.replace(/[\\\n\r\t\0]/g, (c) => ESCAPES[c] as string) : text;
}

function json(value: unknown): string {
  let text = JSON.stringify(value);
  // JSON text holds no raw newline, return, tab or NUL (they are escaped): only backslashes need COPY's escape.
  if (!text.includes('\\')) return text;
  if (text.includes('\\u0000')) text = text.replace(NUL_ESCAPE, '$1').replace(NUL_ESCAPE, '$1');
  return text.replace(BACKSLASH, '\\\\');
}

/** One value as COPY's text format reads it into a column of `type`. */
export function cell(value: unknown, type: SqlType): string {
  if (value === null || value === undefined) return '\\N';
  if (type === 'json') return json(value);
  if (typeof value === 'object') return json(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return copyEscape(String(value));
}

/** The lines of the records' rows, a column each. */
export function* mainLines(
  records: readonly ApiRecord[],
  columns: readonly FieldDef[],
): Generator<string> {
  for (const record of records) {
    let line = '';
    for (const column of columns) line += `${cell(record[column.name], column.type)}\t`;
    yield `${line.slice(0, -1)}\n`;
  }
}

/** The lines of a child table's rows: the parent's id, the position, then the item's columns. */
export function* childLines(
  records: readonly ApiRecord[],
  field: string,
  columns: readonly FieldDef[],
): Generator<string> {
  const items = columns.slice(2);
  for (const record of records) {
    const list = record[field];
    if (!Array.isArray(list)) continue;
    const head = cell(record['id'], 'bigint');
    for (let position = 0; position < list.length; position++) {
      const item: unknown = list[position];
      if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
      let line = `${head}\t${position}`;
      for (const column of items)
        line += `\t${cell((item as ApiRecord)[column.name], column.type)}`;
      yield `${line}\n`;
    }
  }
}

/** Lines gathered into chunks; bytes (COPY text encoded beforehand, file-load.ts) go as they are. */
export function* chunks(lines: Iterable<string | Uint8Array>): Generator<string | Uint8Array> {
  let chunk = '';
  for (const line of lines) {
    if (typeof line !== 'string') {
      if (chunk !== '') yield chunk;
      chunk = '';
      yield line;
      continue;
    }
    chunk += line;
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}
