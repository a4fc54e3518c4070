/**
 * Convert's byte writer for json, jsonl and ndjson without `--fields`: a
 * line of JSON Lines is checked as JSON (json-tape.ts accepts exactly what
 * JSON.parse accepts) and written as JSON.stringify would write the parsed
 * record, from its own bytes: as they are where they already are that text
 * (no whitespace, no escape JSON.stringify would not write, numbers in their
 * own shortest form, no array-index key), made again from the tape where
 * not (tape-text.ts's `json`). A line it cannot vouch for (two keys alike,
 * an escaped key, an envelope of results, not JSON) is left to the record
 * path (JSON.parse, then JSON.stringify), so the bytes are the same either
 * way; a test checks both ways on generated records in many spellings.
 */
import type { LineWriter } from './delimited-bytes.js';
import { TapeRecord } from './tape-record.js';
import { json } from './tape-text.js';

/** Each record as `prefix` + its JSON + `suffix` (json: `,\n` before; jsonl: `\n` after). */
export function jsonLines(prefix: string, suffix: string): LineWriter {
  const record = new TapeRecord();
  const before = new TextEncoder().encode(prefix);
  const after = new TextEncoder().encode(suffix);
  return (bytes, from, to, topLevel, out) => {
    if (!record.read(bytes, from, to, topLevel)) return false;
    const start = out.length;
    out.copy(before, 0, before.length);
    if (!json(bytes, record.tape.tape, 0, out)) {
      out.length = start;
      return false;
    }
    out.copy(after, 0, after.length);
    return true;
  };
}
