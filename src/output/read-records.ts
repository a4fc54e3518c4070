/**
 * Reads saved records back for `news convert`, streaming, in pages of
 * PAGE_SIZE. Accepted, and told apart by their content rather than the file
 * name:
 * - a JSON array of records (`news search -f json`);
 * - a JSON object with a `results` array: a saved raw response envelope;
 * - JSON Lines / NDJSON: one record per line (or any whitespace-separated
 *   sequence of JSON objects); a line that is an envelope contributes its
 *   `results`.
 *
 * The common shapes are one record per line: JSONL, and our own `-f json`
 * (`[`, one record per line with a trailing comma, `]`). Those lines are cut
 * with `indexOf('\n')` and each is given to `JSON.parse` whole. The first line
 * that does not fit (a pretty-printed record, two records on one line, an
 * error) hands the rest of the input to the character scanner
 * (json-scanner.ts), which accepts every shape and reports errors. Memory holds
 * one page and one partial line, never the file.
 */
import { Scanner, bad } from './json-scanner.js';
import type { ApiRecord } from './types.js';

export const PAGE_SIZE = 100;
/** A longer line (a whole array or envelope on one line) goes to the scanner, which streams it. */
const MAX_LINE = 4 * 1024 * 1024;

const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const COMMA = 0x2c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff;
}

/** Where the line reader is: before the first value, in JSONL, inside `[…]`, after `]`. */
type Mode = 'start' | 'lines' | 'array' | 'after';

class LineReader {
  readonly out: ApiRecord[] = [];
  private mode: Mode = 'start';
  private rest = '';
  private line = 1;
  private scanner: Scanner | undefined;

  feed(text: string): void {
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
      this.line++;
      nl = s.indexOf('\n', from);
      if (nl < 0) break;
    }
    this.rest = from === 0 ? s : s.slice(from);
  }

  end(): void {
    if (this.scanner === undefined && this.rest.length > 0) {
      const last = this.rest;
      this.rest = '';
      if (!this.take(last, 0, last.length)) this.fallBack(last);
    }
    if (this.scanner !== undefined) this.scanner.end();
    else if (this.mode === 'array') throw bad('the input ends in the middle of a JSON value');
  }

  /** Hands `text` (from the current line on) to the scanner, in the state the lines left. */
  private fallBack(text: string): void {
    const scanner = new Scanner(this.out, this.line);
    this.scanner = this.mode === 'array' ? scanner.inArray() : scanner;
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
    switch (this.mode) {
      case 'start':
        if (first === OPEN_ARR && b - a === 1) {
          this.mode = 'array';
          return true;
        }
        if (first !== OPEN_OBJ) return false;
        this.mode = 'lines';
        return this.object(s, a, b, true);
      case 'lines':
        return first === OPEN_OBJ && this.object(s, a, b, true);
      case 'array':
        if (first === CLOSE_ARR && b - a === 1) {
          this.mode = 'after';
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
          throw bad(`records must be JSON objects (line ${this.line})`);
        }
        this.out.push(r as ApiRecord);
      }
    } else {
      this.out.push(record);
    }
    return true;
  }
}

export async function* readRecords(input: NodeJS.ReadableStream): AsyncGenerator<ApiRecord[]> {
  // TextDecoder is about twice as fast as StringDecoder on non-ASCII UTF-8;
  // `stream: true` keeps a character cut by a chunk boundary for the next chunk.
  const decoder = new TextDecoder('utf-8');
  const reader = new LineReader();
  for await (const chunk of input as AsyncIterable<Uint8Array | string>) {
    reader.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (reader.out.length >= PAGE_SIZE) yield reader.out.splice(0, PAGE_SIZE);
  }
  reader.feed(decoder.decode());
  reader.end();
  while (reader.out.length > 0) yield reader.out.splice(0, PAGE_SIZE);
}
