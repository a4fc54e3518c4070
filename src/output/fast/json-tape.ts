/**
 * A JSON value in UTF-8 bytes, checked and laid out as a tape (as simdjson
 * does): one entry of four numbers per value and per object key, in document
 * order: its kind and flags, where it starts and ends in the bytes, and the
 * entry after it (after its children for an object or array). Nothing is
 * decoded and no JS value is made: convert's byte reader (parquet-bytes.ts)
 * takes the cells it needs from the tape.
 *
 * The scanner accepts exactly what JSON.parse accepts (RFC 8259: numbers,
 * escapes, no control characters in strings), except that it gives up
 * (returns -1) on nesting deeper than MAX_DEPTH; the bytes are known to be
 * valid UTF-8 (the caller checks). A value is scanned up to its line end.
 *
 * Strings, most of the bytes, are crossed with Buffer.indexOf (memchr) from
 * quote to quote and backslash to backslash, not byte by byte, when the
 * chunk holds no control character but line ends (`chunk` checks): then
 * none can be inside a string.
 */
import { hasControl } from './control-bytes.js';

export const OBJECT = 1;
export const ARRAY = 2;
export const STRING = 3;
export const NUMBER = 4;
export const TRUE = 5;
export const FALSE = 6;
export const NULL = 7;
export const KEY = 8;
export const KIND = 15;
/** On STRING and KEY: the string holds a backslash escape. */
export const ESCAPED = 16;
/**
 * On OBJECT and ARRAY: JSON.stringify would not give these bytes back as
 * they are: whitespace, an escape it would write otherwise, a number in
 * another form than its own (1.0, 1e3, -0), or a key that is an array index
 * (parsed objects list those first). Keys alike in one object are not looked
 * for here. On STRING and KEY: an escape JSON.stringify would write
 * otherwise (`\/`, `\u0041`, `\u001F`: its own are `\"`, `\\`, `\b`,
 * `\f`, `\n`, `\r`, `\t` and `\u00xx`, lower case, for the other control
 * characters), so that a string with only its own escapes is copied as it
 * is (API text: every body holds `\n`).
 */
export const IRREGULAR = 32;

/** Entry fields: tape[e + START] and so on (tape[e] is the kind and flags). */
export const START = 1;
export const END = 2;
export const NEXT = 3;

const MAX_DEPTH = 64;

/**
 * Buffer's indexOf (memchr) on any Uint8Array: the chunk stays a plain
 * Uint8Array, whose subarray is a builtin (Buffer's goes through JS).
 */
export const indexOf = Buffer.prototype.indexOf as (
  this: Uint8Array,
  value: number,
  from: number,
) => number;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The bytes after a backslash that JSON allows, other than `u`. */
const SIMPLE_ESCAPE = new Uint8Array(128);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

function lowerHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66);
}

/**
 * True when `\uXXXX` at b[i] is how JSON.stringify writes its character: a
 * control character other than \b, \f, \n, \r and \t, in lower case.
 */
function ownUnicodeEscape(b: Uint8Array, i: number): boolean {
  if (b[i + 2] !== 0x30 || b[i + 3] !== 0x30) return false;
  const high = b[i + 4]!;
  const low = b[i + 5]!;
  if ((high !== 0x30 && high !== 0x31) || !lowerHex(low)) return false;
  const code = (high - 0x30) * 16 + (low <= 0x39 ? low - 0x30 : low - 0x57);
  return code !== 8 && code !== 9 && code !== 10 && code !== 12 && code !== 13;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export class JsonTape {
  tape = new Int32Array(4096);
  /** Used length of `tape` (four numbers an entry). */
  length = 0;
  private bytes: Uint8Array = new Uint8Array(0);
  /** The chunk holds no control character but line ends. */
  private clean = false;
  /** The first backslash at or after some position (a cache for Buffer.indexOf); the chunk's length for none. */
  private backslash = -1;
  /** Counts what makes a container IRREGULAR. */
  private irregular = 0;

  /** The chunk the lines to scan are in. */
  chunk(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.clean = !hasControl(bytes);
    this.backslash = -1;
  }

  /**
   * Scans the value at `at`, in the chunk, whose line ends at `lineEnd`;
   * returns where the value ends, or -1 when it is not JSON (or too deep).
   * The tape then holds it from entry 0.
   */
  scan(at: number, lineEnd: number): number {
    this.length = 0;
    this.lineEnd = lineEnd;
    return this.value(at, 0);
  }

  private lineEnd = 0;

  private entry(kind: number, start: number, end: number): number {
    const e = this.length;
    if (e + 4 > this.tape.length) {
      const bigger = new Int32Array(this.tape.length * 2);
      bigger.set(this.tape);
      this.tape = bigger;
    }
    const tape = this.tape;
    tape[e] = kind;
    tape[e + START] = start;
    tape[e + END] = end;
    tape[e + NEXT] = e + 4;
    this.length = e + 4;
    return e;
  }

  private space(at: number): number {
    const b = this.bytes;
    let i = at;
    for (;;) {
      const c = b[i];
      if (c !== 0x20 && c !== 0x09 && c !== 0x0d) break;
      i++;
    }
    if (i !== at) this.irregular++;
    return i;
  }

  private value(at: number, depth: number): number {
    const b = this.bytes;
    const i = this.space(at);
    const c = b[i]!;
    if (c === QUOTE) return this.string(i, STRING);
    if (c === 0x7b) return this.object(i, depth + 1);
    if (c === 0x5b) return this.array(i, depth + 1);
    if (c === 0x2d || isDigit(c)) return this.number(i);
    if (c === 0x74 && b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65) {
      this.entry(TRUE, i, i + 4);
      return i + 4;
    }
    if (
      c === 0x66 &&
      b[i + 1] === 0x61 &&
      b[i + 2] === 0x6c &&
      b[i + 3] === 0x73 &&
      b[i + 4] === 0x65
    ) {
      this.entry(FALSE, i, i + 5);
      return i + 5;
    }
    if (c === 0x6e && b[i + 1] === 0x75 && b[i + 2] === 0x6c && b[i + 3] === 0x6c) {
      this.entry(NULL, i, i + 4);
      return i + 4;
    }
    return -1;
  }

  /**
   * The escape at b[i] (a backslash): its length, or -1 when JSON has no
   * such escape; counts it in `respelled` when JSON.stringify writes it
   * otherwise (IRREGULAR).
   */
  private escape(i: number): number {
    const b = this.bytes;
    const e = b[i + 1]!;
    if (e === 0x75) {
      if (!(isHex(b[i + 2]!) && isHex(b[i + 3]!) && isHex(b[i + 4]!) && isHex(b[i + 5]!))) {
        return -1;
      }
      if (!ownUnicodeEscape(b, i)) this.respelled++;
      return 6;
    }
    if (e === 0x2f) this.respelled++; // `\/`: JSON.stringify writes `/`
    return e < 128 && SIMPLE_ESCAPE[e] === 1 ? 2 : -1;
  }

  /** Escapes JSON.stringify would write otherwise, in the string being scanned. */
  private respelled = 0;

  /** A string at the quote `at`: an entry for its contents (between the quotes). */
  private string(at: number, kind: number): number {
    const b = this.bytes;
    let i = at + 1;
    let flags = 0;
    this.respelled = 0;
    if (this.clean) {
      // A short string (a key, a word) ends before memchr would pay for its call.
      const stop = Math.min(i + 16, this.lineEnd);
      let j = i;
      while (j < stop) {
        const c = b[j]!;
        if (c === QUOTE || c === BACKSLASH) break;
        j++;
      }
      if (b[j] === QUOTE) {
        this.entry(kind, at + 1, j);
        return j + 1;
      }
      for (;;) {
        const q = indexOf.call(b, QUOTE, i);
        if (q < 0 || q > this.lineEnd) return -1;
        let s = this.backslash;
        if (s < i) {
          s = indexOf.call(b, BACKSLASH, i);
          if (s < 0) s = b.length;
          this.backslash = s;
        }
        if (s > q) {
          i = q;
          break;
        }
        const length = this.escape(s);
        if (length < 0) return -1;
        flags = ESCAPED;
        i = s + length;
      }
    } else {
      for (;;) {
        const c = b[i]!;
        if (c === QUOTE) break;
        if (c === BACKSLASH) {
          const length = this.escape(i);
          if (length < 0) return -1;
          flags = ESCAPED;
          i += length;
          continue;
        }
        // A control character (a line end included) cannot be in a string.
        if (!(c >= 0x20)) return -1;
        i++;
      }
    }
    if (this.respelled !== 0) {
      flags |= IRREGULAR;
      this.irregular++;
    }
    this.entry(kind | flags, at + 1, i);
    return i + 1;
  }

  /** -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
  private number(at: number): number {
    const b = this.bytes;
    let i = at;
    if (b[i] === 0x2d) i++;
    const first = i;
    if (b[i] === 0x30) i++;
    else if (isDigit(b[i]!)) while (isDigit(b[i]!)) i++;
    else return -1;
    let digits = i - first;
    // As JSON.stringify writes it: at most 15 significant digits, not -0,
    // no trailing zero after the point, nothing below 1e-6 (see tape-text.ts).
    let own = digits <= 15 && !(b[at] === 0x2d && digits === 1 && b[first] === 0x30);
    if (b[i] === 0x2e) {
      i++;
      const fraction = i;
      if (!isDigit(b[i]!)) return -1;
      while (isDigit(b[i]!)) i++;
      let zeros = 0;
      if (b[first] === 0x30) {
        while (b[fraction + zeros] === 0x30) zeros++;
        digits = 0;
      }
      own = b[i - 1] !== 0x30 && zeros <= 5 && digits + i - fraction - zeros <= 15;
    }
    if ((b[i]! | 0x20) === 0x65) {
      i++;
      if (b[i] === 0x2b || b[i] === 0x2d) i++;
      if (!isDigit(b[i]!)) return -1;
      while (isDigit(b[i]!)) i++;
      own = false;
    }
    if (!own) this.irregular++;
    this.entry(NUMBER, at, i);
    return i;
  }

  private object(at: number, depth: number): number {
    if (depth > MAX_DEPTH) return -1;
    const b = this.bytes;
    const irregular = this.irregular;
    const e = this.entry(OBJECT, at, at);
    let i = this.space(at + 1);
    if (b[i] !== 0x7d) {
      for (;;) {
        if (b[i] !== QUOTE) return -1;
        const k = this.length;
        i = this.string(i, KEY);
        if (i < 0) return -1;
        if (isDigit(b[this.tape[k + START]!]!)) this.indexKey(k);
        i = this.space(i);
        if (b[i] !== 0x3a) return -1;
        i = this.value(i + 1, depth);
        if (i < 0) return -1;
        i = this.space(i);
        if (b[i] === 0x2c) {
          i = this.space(i + 1);
          continue;
        }
        if (b[i] === 0x7d) break;
        return -1;
      }
    }
    this.close(e, i + 1, irregular);
    return i + 1;
  }

  /** A key that is an array index (0 to 2^32 - 2, no leading zero) is irregular. */
  private indexKey(k: number): void {
    const b = this.bytes;
    const start = this.tape[k + START]!;
    const end = this.tape[k + END]!;
    if (end - start > 10 || (b[start] === 0x30 && end - start > 1)) return;
    let n = 0;
    for (let i = start; i < end; i++) {
      if (!isDigit(b[i]!)) return;
      n = n * 10 + b[i]! - 0x30;
    }
    if (n < 4294967295) this.irregular++;
  }

  private array(at: number, depth: number): number {
    if (depth > MAX_DEPTH) return -1;
    const b = this.bytes;
    const irregular = this.irregular;
    const e = this.entry(ARRAY, at, at);
    let i = this.space(at + 1);
    if (b[i] !== 0x5d) {
      for (;;) {
        i = this.value(i, depth);
        if (i < 0) return -1;
        i = this.space(i);
        if (b[i] === 0x2c) {
          i++;
          continue;
        }
        if (b[i] === 0x5d) break;
        return -1;
      }
    }
    this.close(e, i + 1, irregular);
    return i + 1;
  }

  private close(e: number, end: number, irregular: number): void {
    const tape = this.tape;
    if (this.irregular !== irregular) tape[e] = tape[e]! | IRREGULAR;
    tape[e + END] = end;
    tape[e + NEXT] = this.length;
  }
}
