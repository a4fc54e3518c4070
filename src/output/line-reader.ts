/**
 * Reads records that come one per line: JSONL, and our own `-f json` (`[`, one
 * record per line with a trailing comma, `]`). Lines are cut with
 * `indexOf('\n')` and each is given to `JSON.parse` whole. The first line that
 * does not fit (a pretty-printed record, two records on one line, an error)
 * hands the rest of the input to the character scanner (json-scanner.ts), which
 * accepts every shape and reports errors, unless the reader is strict: then it
 * stops and says so (`failed`), and its caller re-reads that input with a
 * reader that is not (how convert's workers hand a hard chunk back).
 */
import {
  CLOSE_ARR,
  CLOSE_OBJ,
  COMMA,
  OPEN_ARR,
  OPEN_OBJ,
  Scanner,
  bad,
  isSpace,
} from './json-scanner.js';
import type { ApiRecord } from './types.js';

/** A longer line (a whole array or envelope on one line) goes to the scanner, which streams it. */
const MAX_LINE = 4 * 1024 * 1024;

/**
 * Bytes are decoded this much at a time. The text of a slice (two bytes a
 * character once it holds any non-Latin-1 letter) then stays under V8's
 * large-object size (128 KB) and is made in the young generation, not in
 * freshly mapped pages: with 256 KB slices, converting 10,000 articles took
 * 183,000 page faults, with 32 KB 83,000, and ~15 % less CPU time.
 */
const DECODE_SLICE = 32 * 1024;

/** Where the reader is: before the first value, in JSONL, inside `[…]`, after `]`. */
export type LineMode = 'start' | 'lines' | 'array' | 'after';

export interface LineReaderOptions {
  /** The mode the input starts in (default `start`). */
  mode?: LineMode;
  /** The line number of the first line, for the scanner's messages (default 1). */
  line?: number;
  /** Stop at the first line that does not fit instead of scanning it. */
  strict?: boolean;
}

export class LineReader {
  readonly out: ApiRecord[] = [];
  private currentMode: LineMode;
  private rest = '';
  private lineNumber: number;
  private scanner: Scanner | undefined;
  private readonly strict: boolean;
  private stopped = false;

  constructor(options: LineReaderOptions = {}) {
    this.currentMode = options.mode ?? 'start';
    this.lineNumber = options.line ?? 1;
    this.strict = options.strict ?? false;
  }

  get mode(): LineMode {
    return this.currentMode;
  }

  /** The number of the line being read. */
  get line(): number {
    return this.lineNumber;
  }

  /** True while every line so far was one record per line: no scanner, nothing pending. */
  get lineShaped(): boolean {
    return this.scanner === undefined && !this.stopped && this.rest.length === 0;
  }

  /** The character scanner reads the rest: the input is no longer one record per line. */
  get scanning(): boolean {
    return this.scanner !== undefined;
  }

  /** Strict readers only: a line did not fit; nothing after it was read. */
  get failed(): boolean {
    return this.stopped;
  }

  /**
   * Decodes UTF-8 `bytes` (`decoder` carries a character split between
   * calls) and feeds the text a slice at a time, calling `then` after each
   * slice so that records can be taken out as they come.
   */
  feedBytes(bytes: Uint8Array, decoder: InstanceType<typeof TextDecoder>, then?: () => void): void {
    for (let at = 0; at < bytes.length && !this.stopped; at += DECODE_SLICE) {
      this.feed(decoder.decode(bytes.subarray(at, at + DECODE_SLICE), { stream: true }));
      then?.();
    }
  }

  feed(text: string): void {
    if (this.stopped) return;
    if (this.scanner !== undefined) {
      this.scanner.feed(text);
      return;
    }
    const firstNl = text.indexOf('\n');
    if (firstNl < 0) {
      // No line end yet: keep collecting, but never a whole single-line file.
      this.rest += text;
      if (this.rest.length > MAX_LINE) {
        const partial = this.rest;
        this.rest = '';
        this.fallBack(partial);
      }
      return;
    }
    const s = this.rest.length === 0 ? text : this.rest + text;
    let from = 0;
    let nl = firstNl + (s.length - text.length);
    for (;;) {
      if (!this.take(s, from, nl)) {
        this.rest = '';
        this.fallBack(s.slice(from));
        return;
      }
      from = nl + 1;
      this.lineNumber++;
      nl = s.indexOf('\n', from);
      if (nl < 0) break;
    }
    this.rest = from === 0 ? s : s.slice(from);
  }

  /** Reads a last line that has no line end. */
  finishLine(): void {
    if (this.stopped || this.scanner !== undefined || this.rest.length === 0) return;
    const last = this.rest;
    this.rest = '';
    if (!this.take(last, 0, last.length)) this.fallBack(last);
  }

  /** The end of the input: throws when it ends inside a value. */
  end(): void {
    this.finishLine();
    if (this.scanner !== undefined) this.scanner.end();
    else if (this.currentMode === 'array')
      throw bad('the input ends in the middle of a JSON value');
  }

  /** Hands `text` (from the current line on) to the scanner, in the state the lines left. */
  private fallBack(text: string): void {
    if (this.strict) {
      this.stopped = true;
      return;
    }
    const scanner = new Scanner(this.out, this.lineNumber);
    this.scanner = this.currentMode === 'array' ? scanner.inArray() : scanner;
    scanner.feed(text);
  }

  /** One line, s[from, to): true when it was taken, false to fall back to the scanner. */
  private take(s: string, from: number, to: number): boolean {
    let a = from;
    let b = to;
    while (a < b && isSpace(s.charCodeAt(a))) a++;
    while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
    if (a === b) return true;
    const first = s.charCodeAt(a);
    const last = s.charCodeAt(b - 1);
    switch (this.currentMode) {
      case 'start':
        if (first === OPEN_ARR && b - a === 1) {
          this.currentMode = 'array';
          return true;
        }
        if (first !== OPEN_OBJ) return false;
        this.currentMode = 'lines';
        return this.object(s, a, b, true);
      case 'lines':
        return first === OPEN_OBJ && this.object(s, a, b, true);
      case 'array':
        if (first === CLOSE_ARR && b - a === 1) {
          this.currentMode = 'after';
          return true;
        }
        if (first !== OPEN_OBJ) return false;
        if (last === COMMA) b--;
        while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
        return this.object(s, a, b, false);
      case 'after':
        return false;
    }
  }

  /** Parses s[a, b) as one object; at the top level an envelope gives its results. */
  private object(s: string, a: number, b: number, topLevel: boolean): boolean {
    if (s.charCodeAt(b - 1) !== CLOSE_OBJ) return false;
    let value: unknown;
    try {
      value = JSON.parse(s.slice(a, b));
    } catch {
      return false; // the scanner finds the error, or the records, in it
    }
    const record = value as ApiRecord;
    const results = topLevel ? record['results'] : undefined;
    if (Array.isArray(results)) {
      for (const r of results) {
        if (typeof r !== 'object' || r === null || Array.isArray(r)) {
          if (this.strict) return false;
          throw bad(`records must be JSON objects (line ${this.lineNumber})`);
        }
      }
      for (const r of results) this.out.push(r as ApiRecord);
    } else {
      this.out.push(record);
    }
    return true;
  }
}
