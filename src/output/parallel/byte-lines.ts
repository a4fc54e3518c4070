/**
 * A convert worker's chunk read from its bytes, for an encoder that takes a
 * line of JSON straight from them (Parquet: formats/parquet-bytes.ts). Each
 * line that is one object (JSON Lines, or a line of our own `-f json`
 * array, its trailing comma left out) goes to `addLine`; any other line
 * (the array's brackets, an envelope of results, a line `addLine` declines,
 * a last line without a line end) is read by a LineReader in the state the
 * lines before it left, exactly as the text path reads it (`readLines`), and
 * its records go to `add`. So the records, the line count, the mode and the
 * line where a strict reader stops are those of the text path.
 *
 * The caller checks first that the chunk is valid UTF-8: a chunk that is not
 * goes through the text path whole (TextDecoder's replacement characters).
 */
import { indexOf } from '../formats/parquet-tape.js';
import { LineReader } from '../line-reader.js';
import type { LineMode } from '../line-reader.js';
import type { ApiRecord } from '../types.js';

export interface LineTarget {
  add(records: readonly ApiRecord[]): void;
  /** The object on bytes[from, to), a line end after it; false: nothing taken, read it as text. */
  addLine(bytes: Uint8Array, from: number, to: number, topLevel: boolean): boolean;
}

export interface LinesRead {
  /** Line ends read (before the line a strict reader stopped at, when `failed`). */
  readonly lines: number;
  readonly mode: LineMode;
  /** A line is not one record: nothing after it was read. */
  readonly failed: boolean;
}

const NL = 0x0a;
const COMMA = 0x2c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}

export function readByteLines(bytes: Uint8Array, start: LineMode, target: LineTarget): LinesRead {
  let mode = start;
  let lines = 0;
  let pos = 0;
  while (pos < bytes.length) {
    const nl = indexOf.call(bytes, NL, pos);
    const end = nl < 0 ? bytes.length : nl;
    let a = pos;
    let b = end;
    while (a < b && isSpace(bytes[a]!)) a++;
    while (b > a && isSpace(bytes[b - 1]!)) b--;
    if (nl >= 0 && a === b) {
      lines++;
      pos = nl + 1;
      continue;
    }
    if (nl >= 0 && bytes[a] === 0x7b && (mode === 'lines' || mode === 'array')) {
      if (mode === 'array' && bytes[b - 1] === COMMA) {
        b--;
        while (b > a && isSpace(bytes[b - 1]!)) b--;
      }
      if (bytes[b - 1] === 0x7d && target.addLine(bytes, a, b, mode === 'lines')) {
        lines++;
        pos = nl + 1;
        continue;
      }
    }
    // This line as text, in the reader state the lines before it left. The
    // text path's decoder drops a byte-order mark only at the chunk's start.
    const reader = new LineReader({ mode, line: lines + 1, strict: true });
    const decoder = new TextDecoder('utf-8', { ignoreBOM: pos > 0 });
    reader.feed(decoder.decode(bytes.subarray(pos, nl < 0 ? end : nl + 1)));
    if (nl < 0) reader.finishLine();
    if (reader.out.length > 0) target.add(reader.out);
    if (reader.failed) return { lines, mode, failed: true };
    mode = reader.mode;
    if (nl < 0) break;
    lines++;
    pos = nl + 1;
  }
  return { lines, mode, failed: false };
}
