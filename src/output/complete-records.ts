/**
 * Where the last complete record of a file written as records arrive ends,
 * so a file cut short by a crash is continued after its last whole record
 * (`stream --state`): a torn line left in place would swallow the rows after
 * it (an open csv quote) or break every reader (a half JSON line). The torn
 * record is written again anyway, since the state had not moved past it.
 *
 * Line formats (jsonl, ndjson, tsv, table) never hold a raw line end inside
 * a record: the last `\n` ends the last record, found from the end. A csv
 * record may (a quoted field with a line end in it), so a csv file is read
 * through once, in chunks, tracking its quotes: the last `\n` outside quotes
 * ends the last record. Flat memory either way; a csv of a gigabyte costs
 * about a second, once per restart.
 */
import { open } from 'node:fs/promises';

const CHUNK = 1024 * 1024;
const LF = 0x0a;
const QUOTE = 0x22;

/** How records end in a file: at every line end, or at line ends outside csv quotes. */
export type RecordEnds = 'line' | 'csv';

/** The length of the file up to and including the line end of its last complete record (0: none). */
export async function completeLength(path: string, ends: RecordEnds): Promise<number> {
  return (await lastRecord(path, ends)).end;
}

/**
 * Where the last complete record starts and ends (`start === end`: none), so
 * a restarted stream can read the id of the last article it wrote.
 */
export async function lastRecord(
  path: string,
  ends: RecordEnds,
): Promise<{ start: number; end: number }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(CHUNK, size));
    const read: Read = (position, length) => handle.read(buffer, 0, length, position);
    if (ends === 'csv') return await lastCsvRecord(read, buffer, size);
    const end = await lastLineEnd(read, buffer, size);
    return { start: end === 0 ? 0 : await lastLineEnd(read, buffer, end - 1), end };
  } finally {
    await handle.close();
  }
}

type Read = (position: number, length: number) => Promise<{ bytesRead: number }>;

/** Just after the last line end before `size` (0: none). */
async function lastLineEnd(read: Read, buffer: Buffer, size: number): Promise<number> {
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - buffer.length);
    const { bytesRead } = await read(start, end - start);
    const at = buffer.subarray(0, bytesRead).lastIndexOf(LF);
    if (at !== -1) return start + at + 1;
    end = start;
  }
  return 0;
}

async function lastCsvRecord(
  read: Read,
  buffer: Buffer,
  size: number,
): Promise<{ start: number; end: number }> {
  let quoted = false;
  let end = 0;
  // Where the record before the last one ended: the last one's start.
  let start = 0;
  for (let offset = 0; offset < size; ) {
    const { bytesRead } = await read(offset, Math.min(buffer.length, size - offset));
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    // Quote to quote: a doubled quote inside a field toggles twice, which is no change.
    for (let i = 0; i < chunk.length; ) {
      const quote = chunk.indexOf(QUOTE, i);
      if (!quoted) {
        const stop = quote === -1 ? chunk.length : quote;
        if (stop > i) {
          const segment = chunk.subarray(i, stop);
          const lf = segment.lastIndexOf(LF);
          if (lf !== -1) {
            const before = lf === 0 ? -1 : segment.lastIndexOf(LF, lf - 1);
            start = before === -1 ? end : offset + i + before + 1;
            end = offset + i + lf + 1;
          }
        }
      }
      if (quote === -1) break;
      quoted = !quoted;
      i = quote + 1;
    }
    offset += bytesRead;
  }
  return { start, end };
}
