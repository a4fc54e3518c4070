/**
 * A batch into the staging table with one `COPY … FROM STDIN` (text
 * format): one JSON document a line. JSON text has no raw newline or tab,
 * so the only escaping COPY's text format needs is doubling backslashes.
 * Lines go out in chunks of about a megabyte, with the socket's
 * backpressure, so a batch is never held twice in memory.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Client } from 'pg';
import type { ApiRecord } from '../../types.js';
import { COPY_STAGE } from './sql.js';

const CHUNK = 1 << 20;

/** JSON's `\u0000` escape: PostgreSQL's text and jsonb cannot hold NUL, so it is dropped. */
const NUL_ESCAPE = /((?:^|[^\\])(?:\\\\)*)\\u0000/g;

export function copyLine(record: ApiRecord): string {
  let json = JSON.stringify(record);
  if (json.includes('\\u0000')) json = json.replace(NUL_ESCAPE, '$1').replace(NUL_ESCAPE, '$1');
  return `${json.replaceAll('\\', '\\\\')}\n`;
}

function* chunks(records: readonly ApiRecord[]): Generator<string> {
  let chunk = '';
  for (const record of records) {
    chunk += copyLine(record);
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

export async function copyToStage(client: Client, records: readonly ApiRecord[]): Promise<void> {
  const { from } = await import('pg-copy-streams');
  const stream = client.query(from(COPY_STAGE));
  await pipeline(Readable.from(chunks(records)), stream);
}
