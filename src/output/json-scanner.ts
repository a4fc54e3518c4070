/**
 * The general JSON record scanner behind convert's reader: finds where each
 * record starts and ends (depth, strings, escapes) in a JSON array, a saved
 * envelope (`{"results": [...]}`) or any whitespace-separated sequence of JSON
 * objects, and parses only that record's text, so memory holds one page,
 * never the file. It works character by character; the line reader
 * (line-reader.ts) hands it the input only when the input is not one record
 * per line.
 */
import { UsageError } from '../api/errors.js';
import type { ApiRecord } from './types.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const OPEN_OBJ = 0x7b;
export const CLOSE_OBJ = 0x7d;
export const OPEN_ARR = 0x5b;
export const CLOSE_ARR = 0x5d;
export const COMMA = 0x2c;
const COLON = 0x3a;

/** JSON whitespace, and a byte-order mark. */
export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff;
}

export function bad(message: string): UsageError {
  return new UsageError(`cannot read the input: ${message}`, {
    hint: 'convert reads a JSON array of records, a saved response ({"results": [...]}) or JSON Lines',
  });
}

/** The scanner's state across chunks. */
export class Scanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Depth at which an object is a record: 0 top level, 1 in a top-level array, 2 in an envelope's results. */
  private recordDepth = 0;
  private capturing = false;
  private captureDepth = -1;
  private carry = '';
  private start = -1;
  // Envelope detection inside a top-level object (depth 1).
  private topObject = false;
  private expectKey = false;
  private keyCarry = '';
  private keyStart = -1;
  private lastKey = '';
  private afterColon = false;
  private resultsOpen = false;
  private envelope = false;
  private line: number;

  /** Records go to `out`; `line` is the line the scanner starts on (for messages). */
  constructor(
    readonly out: ApiRecord[],
    line = 1,
  ) {
    this.line = line;
  }

  /** Starts inside a top-level array, after its `[`: its elements are records. */
  inArray(): this {
    this.depth = 1;
    this.recordDepth = 1;
    return this;
  }

  feed(s: string): void {
    const n = s.length;
    let i = 0;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.keyStart >= 0) {
            this.lastKey = JSON.parse(this.keyCarry + s.slice(this.keyStart, i + 1)) as string;
            this.keyStart = -1;
            this.keyCarry = '';
          }
        } else if (c === 0x0a) this.line++;
        i++;
        continue;
      }
      if (c === 0x0a) this.line++;
      if (isSpace(c)) {
        i++;
        continue;
      }
      const valueAtTop = this.depth === 1 && this.topObject && this.afterColon;
      if (valueAtTop) this.afterColon = false;
      switch (c) {
        case QUOTE:
          if (this.depth === 0 || (this.depth === this.recordDepth && !this.capturing)) {
            throw bad(`records must be JSON objects (line ${this.line})`);
          }
          this.inString = true;
          if (this.depth === 1 && this.topObject && this.expectKey) {
            this.keyStart = i;
            this.expectKey = false;
          }
          break;
        case OPEN_OBJ:
          if (this.depth === this.recordDepth && !this.capturing) {
            this.capturing = true;
            this.captureDepth = this.depth;
            this.start = i;
            if (this.depth === 0) {
              this.topObject = true;
              this.envelope = false;
              this.expectKey = true;
            }
          } else if (this.depth === 0) {
            throw bad(`unexpected "{" on line ${this.line}`);
          }
          this.depth++;
          break;
        case OPEN_ARR:
          if (this.depth === this.recordDepth && this.recordDepth > 0 && !this.capturing) {
            // An array where a record belongs was skipped whole before: a record
            // must never vanish without a word.
            throw bad(`records must be JSON objects; found an array (line ${this.line})`);
          }
          if (this.depth === 0) {
            this.recordDepth = 1;
          } else if (valueAtTop && this.lastKey === 'results' && this.depth === 1) {
            // A saved envelope: its records are the elements of `results`.
            this.capturing = false;
            this.carry = '';
            this.start = -1;
            this.envelope = true;
            this.resultsOpen = true;
            this.recordDepth = 2;
          }
          this.depth++;
          break;
        case CLOSE_OBJ:
        case CLOSE_ARR:
          this.depth--;
          if (this.depth < 0)
            throw bad(`unbalanced "${String.fromCharCode(c)}" on line ${this.line}`);
          if (c === CLOSE_ARR && this.resultsOpen && this.depth === 1) {
            this.resultsOpen = false;
            this.recordDepth = 0;
          } else if (c === CLOSE_ARR && this.depth === 0) {
            this.recordDepth = 0;
          }
          if (c === CLOSE_OBJ && this.capturing && this.depth === this.captureDepth) {
            const text = this.carry + s.slice(this.start, i + 1);
            this.carry = '';
            this.start = -1;
            this.capturing = false;
            this.emit(text);
          }
          if (c === CLOSE_OBJ && this.depth === 0) this.topObject = false;
          break;
        case COMMA:
          if (this.depth === 1 && this.topObject) this.expectKey = true;
          break;
        case COLON:
          if (this.depth === 1 && this.topObject) this.afterColon = true;
          break;
        default:
          if (this.depth === 0)
            throw bad(`expected JSON, found "${s.slice(i, i + 20)}" on line ${this.line}`);
          if (this.depth === this.recordDepth && this.recordDepth > 0) {
            throw bad(`records must be JSON objects (line ${this.line})`);
          }
      }
      i++;
    }
    if (this.capturing && this.start >= 0) {
      this.carry += s.slice(this.start);
      this.start = 0;
    }
    if (this.keyStart >= 0) {
      this.keyCarry += s.slice(this.keyStart);
      this.keyStart = 0;
    }
  }

  private emit(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw bad(`invalid JSON before line ${this.line}: ${(err as Error).message}`);
    }
    if (this.topObject && this.depth === 0 && !this.envelope) {
      const results = (value as Record<string, unknown>)['results'];
      // An envelope whose results were not an array at the top (e.g. after other keys): rare, handled whole.
      if (Array.isArray(results)) {
        for (const r of results) {
          if (typeof r !== 'object' || r === null || Array.isArray(r)) {
            throw bad(`records must be JSON objects (before line ${this.line})`);
          }
        }
        for (const r of results) this.out.push(r as ApiRecord);
        return;
      }
    }
    this.out.push(value as ApiRecord);
  }

  end(): void {
    if (this.depth !== 0 || this.inString)
      throw bad('the input ends in the middle of a JSON value');
  }
}
