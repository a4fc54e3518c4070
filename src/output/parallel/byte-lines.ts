/**
 * A convert worker's chunk read from its bytes, for an encoder that takes a
 * line of JSON straight from them (Parquet: fast/parquet-bytes.ts). Each
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
import { indexOf } from '../fast/json-tape.js';
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

/**
 * bytes[from, to) as text (the text path): decoded and parsed a slice at a
 * time by a strict LineReader in `mode`, the line ends before `from` counted
 * in `lines`; records go to `add` as they come.
 */
export function readTextLines(
  bytes: Uint8Array,
  from: number,
  to: number,
  mode: LineMode,
  lines: number,
  add: (records: ApiRecord[]) => void,
): LinesRead {
  const reader = new LineReader({ mode, line: lines + 1, strict: true });
  // The decoder drops a byte-order mark only at the chunk's start, as one decoding it whole.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: from > 0 });
  reader.feedBytes(bytes.subarray(from, to), decoder, () => add(reader.out.splice(0)));
  reader.feed(decoder.decode());
  reader.finishLine();
  add(reader.out.splice(0));
  return { lines: reader.line - 1, mode: reader.mode, failed: reader.failed };
}

/** Lines declined before the rest of a chunk goes to the text path at once: */
const DECLINED = 16;

export function readByteLines(bytes: Uint8Array, start: LineMode, target: LineTarget): LinesRead {
  let mode = start;
  let lines = 0;
  let pos = 0;
  let offered = 0;
  let declined = 0;
  const add = (records: ApiRecord[]): void => {
    if (records.length > 0) target.add(records);
  };
  while (pos < bytes.length) {
    // Lines the encoder mostly declines (another spelling of numbers, say)
    // cost both ways: the rest of the chunk is read as text.
    if (declined >= DECLINED && declined * 2 >= offered) {
      return readTextLines(bytes, pos, bytes.length, mode, lines, add);
    }
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
      offered++;
      if (bytes[b - 1] === 0x7d && target.addLine(bytes, a, b, mode === 'lines')) {
        lines++;
        pos = nl + 1;
        continue;
      }
      declined++;
    }
    // This line as text, in the reader state the lines before it left.
    const read = readTextLines(bytes, pos, nl < 0 ? end : nl + 1, mode, lines, add);
    if (read.failed || nl < 0) return read;
    mode = read.mode;
    lines = read.lines;
    pos = nl + 1;
  }
  return { lines, mode, failed: false };
}
