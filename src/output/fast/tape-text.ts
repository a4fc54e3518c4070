/**
 * Text made from a tape's bytes (json-tape.ts) exactly as the record path
 * makes it from the parsed value: a string's text (`unescape`, what
 * JSON.parse gives, as TextEncoder then writes it), and a value as
 * JSON.stringify writes it (`json`). Where JSON.stringify would not give the
 * input's own bytes back in a way checked here cheaply (an object with two
 * keys alike or a key that is an array index, which JSON.parse moves first,
 * or a key with an escape), `json` returns false and the caller reads that
 * record the ordinary way.
 */
import {
  ARRAY,
  END,
  ESCAPED,
  FALSE,
  IRREGULAR,
  KEY,
  KIND,
  NEXT,
  NULL,
  NUMBER,
  OBJECT,
  START,
  STRING,
  TRUE,
  indexOf,
} from './json-tape.js';
import { hasKeysAlike, isIndexKey, keysAlike } from './json-keys.js';

const BACKSLASH = 0x5c;
const QUOTE = 0x22;

/** A growable output buffer, used again for every value. */
export class TextOut {
  bytes = new Uint8Array(16 * 1024);
  length = 0;

  ensure(size: number): void {
    if (this.length + size <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + size));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
  }

  byte(c: number): void {
    this.ensure(1);
    this.bytes[this.length++] = c;
  }

  copy(from: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.ensure(n);
    if (n < 32) {
      const bytes = this.bytes;
      let o = this.length;
      for (let i = start; i < end; i++) bytes[o++] = from[i]!;
    } else this.bytes.set(from.subarray(start, end), this.length);
    this.length += n;
  }

  ascii(text: string): void {
    this.ensure(text.length);
    for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
  }
}

function hex(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}

function hex4(b: Uint8Array, i: number): number {
  return (hex(b[i]!) << 12) | (hex(b[i + 1]!) << 8) | (hex(b[i + 2]!) << 4) | hex(b[i + 3]!);
}

/** The length of the last escape `codeAt` read (6, or 12 for a surrogate pair). */
let escapeLength = 6;

/** The code unit (or, for an escaped surrogate pair, the code point) of `\u…` at b[i]; see `escapeLength`. */
function codeAt(b: Uint8Array, i: number, end: number): number {
  const unit = hex4(b, i + 2);
  escapeLength = 6;
  if (
    unit >= 0xd800 &&
    unit <= 0xdbff &&
    i + 12 <= end &&
    b[i + 6] === BACKSLASH &&
    b[i + 7] === 0x75
  ) {
    const low = hex4(b, i + 8);
    if (low >= 0xdc00 && low <= 0xdfff) {
      escapeLength = 12;
      return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
    }
  }
  return unit;
}

function writeUtf8(out: Uint8Array, o: number, cp: number): number {
  if (cp < 0x80) out[o++] = cp;
  else if (cp < 0x800) {
    out[o++] = 0xc0 | (cp >> 6);
    out[o++] = 0x80 | (cp & 0x3f);
  } else if (cp < 0x10000) {
    out[o++] = 0xe0 | (cp >> 12);
    out[o++] = 0x80 | ((cp >> 6) & 0x3f);
    out[o++] = 0x80 | (cp & 0x3f);
  } else {
    out[o++] = 0xf0 | (cp >> 18);
    out[o++] = 0x80 | ((cp >> 12) & 0x3f);
    out[o++] = 0x80 | ((cp >> 6) & 0x3f);
    out[o++] = 0x80 | (cp & 0x3f);
  }
  return o;
}

const UNESCAPED = new Uint8Array(128);
UNESCAPED[QUOTE] = QUOTE;
UNESCAPED[BACKSLASH] = BACKSLASH;
UNESCAPED[0x2f] = 0x2f;
UNESCAPED[0x62] = 0x08;
UNESCAPED[0x66] = 0x0c;
UNESCAPED[0x6e] = 0x0a;
UNESCAPED[0x72] = 0x0d;
UNESCAPED[0x74] = 0x09;

/**
 * The text of the string contents b[start, end) (escapes resolved; a lone
 * surrogate as U+FFFD, as TextEncoder writes it) into out[o…]; returns the
 * end. It is never longer than the contents, so `end - start` bytes of room
 * are enough.
 */
function unescapeInto(
  b: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
  o: number,
): number {
  let i = start;
  while (i < end) {
    // Runs without escapes are copied whole.
    let j = indexOf.call(b, BACKSLASH, i);
    if (j < 0 || j > end) j = end;
    if (j - i < 32) while (i < j) out[o++] = b[i++]!;
    else {
      out.set(b.subarray(i, j), o);
      o += j - i;
      i = j;
    }
    if (i >= end) break;
    const e = b[i + 1]!;
    if (e !== 0x75) {
      out[o++] = UNESCAPED[e]!;
      i += 2;
      continue;
    }
    const cp = codeAt(b, i, end);
    o = writeUtf8(out, o, cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp);
    i += escapeLength;
  }
  return o;
}

const SHORT_ESCAPES: Record<number, number> = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };
const HEX = '0123456789abcdef';

/** String contents as JSON.stringify quotes them: `"`, `\`, control characters and lone surrogates escaped. */
function quoted(b: Uint8Array, start: number, end: number, escaped: boolean, out: TextOut): void {
  out.byte(QUOTE);
  if (!escaped) {
    out.copy(b, start, end);
    out.byte(QUOTE);
    return;
  }
  // Each escape gives at most as many bytes as it takes.
  out.ensure(end - start + 1);
  const bytes = out.bytes;
  let o = out.length;
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c !== BACKSLASH) {
      bytes[o++] = c;
      i++;
      continue;
    }
    const e = b[i + 1]!;
    if (e !== 0x75) {
      if (e === 0x2f) bytes[o++] = 0x2f;
      else {
        bytes[o++] = BACKSLASH;
        bytes[o++] = e;
      }
      i += 2;
      continue;
    }
    const cp = codeAt(b, i, end);
    i += escapeLength;
    const short = SHORT_ESCAPES[cp];
    if (cp === QUOTE || cp === BACKSLASH) {
      bytes[o++] = BACKSLASH;
      bytes[o++] = cp;
    } else if (short !== undefined) {
      bytes[o++] = BACKSLASH;
      bytes[o++] = short;
    } else if (cp < 0x20 || (cp >= 0xd800 && cp <= 0xdfff)) {
      bytes[o++] = BACKSLASH;
      bytes[o++] = 0x75;
      for (let shift = 12; shift >= 0; shift -= 4) bytes[o++] = HEX.charCodeAt((cp >> shift) & 15);
    } else o = writeUtf8(bytes, o, cp);
  }
  out.length = o;
  out.byte(QUOTE);
}

const POW10 = [
  1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
];

/**
 * The number b[start, end) as JSON.parse reads it, when that is exact
 * without parsing text: at most 15 digits and no exponent (the digits make an
 * integer below 2^53 and a power of ten up to 1e15 divides it exactly
 * rounded, so the double is the one `Number` gives). NaN otherwise.
 */
export function simpleNumber(b: Uint8Array, start: number, end: number): number {
  let i = start;
  const negative = b[i] === 0x2d;
  if (negative) i++;
  let m = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < end; i++) {
    const c = b[i]!;
    if (c === 0x2e) fraction = 0;
    else if (c >= 0x30 && c <= 0x39) {
      m = m * 10 + (c - 0x30);
      digits++;
      if (fraction >= 0) fraction++;
    } else return Number.NaN; // an exponent
  }
  if (digits > 15) return Number.NaN;
  const n = fraction > 0 ? m / POW10[fraction]! : m;
  return negative ? -n : n;
}

/**
 * True when JSON.stringify writes the number b[start, end) as these very
 * bytes: no exponent, at most 15 significant digits (so the shortest digits
 * that give the same double are these), no trailing zero after a point, not
 * below 1e-6 (written with an exponent), and not -0.
 */
export function canonicalNumber(b: Uint8Array, start: number, end: number): boolean {
  let i = start;
  if (b[i] === 0x2d) i++;
  const intStart = i;
  while (i < end && b[i] !== 0x2e) {
    if (b[i]! > 0x39) return false; // e, E
    i++;
  }
  const intDigits = i - intStart;
  if (i === end) return intDigits <= 15 && !(b[start] === 0x2d && b[intStart] === 0x30);
  const fracStart = i + 1;
  for (let k = fracStart; k < end; k++) if (b[k]! > 0x39) return false;
  if (b[end - 1] === 0x30) return false;
  if (b[intStart] !== 0x30) return intDigits + end - fracStart <= 15;
  let zeros = 0;
  while (b[fracStart + zeros] === 0x30) zeros++;
  return zeros <= 5 && end - fracStart - zeros <= 15;
}

/** A number as String(n) (`join`) or JSON.stringify(n) writes it (`null` when not finite). */
export function numberText(
  b: Uint8Array,
  start: number,
  end: number,
  out: TextOut,
  json: boolean,
): void {
  if (canonicalNumber(b, start, end)) {
    out.copy(b, start, end);
    return;
  }
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(b[i]!);
  const n = Number(text);
  out.ascii(json && !Number.isFinite(n) ? 'null' : String(n));
}

/** A string's text (escapes resolved) at the end of `out`. */
export function stringText(
  b: Uint8Array,
  start: number,
  end: number,
  escaped: boolean,
  out: TextOut,
): void {
  if (!escaped) {
    out.copy(b, start, end);
    return;
  }
  out.ensure(end - start);
  out.length = unescapeInto(b, start, end, out.bytes, out.length);
}

/**
 * True when entry e is an object or array that JSON.stringify would write
 * as the very bytes it has (json() copies them): nothing IRREGULAR in it, no
 * object with two keys alike.
 */
export function asIs(b: Uint8Array, tape: Int32Array, e: number): boolean {
  const kind = tape[e]! & KIND;
  return (
    (kind === OBJECT || kind === ARRAY) && (tape[e]! & IRREGULAR) === 0 && !hasKeysAlike(b, tape, e)
  );
}

/** Entry e of `tape` as JSON.stringify writes the parsed value; false when not checked (see above). */
export function json(b: Uint8Array, tape: Int32Array, e: number, out: TextOut): boolean {
  const kind = tape[e]! & KIND;
  const start = tape[e + START]!;
  const end = tape[e + END]!;
  if ((kind === OBJECT || kind === ARRAY) && (tape[e]! & IRREGULAR) === 0) {
    // Written as JSON.stringify writes it already, unless an object has two keys alike.
    if (hasKeysAlike(b, tape, e)) return false;
    out.copy(b, start, end);
    return true;
  }
  switch (kind) {
    case STRING:
      // Only escapes JSON.stringify writes itself: the bytes as they are.
      quoted(b, start, end, (tape[e]! & IRREGULAR) !== 0, out);
      return true;
    case NUMBER:
      numberText(b, start, end, out, true);
      return true;
    case TRUE:
    case FALSE:
    case NULL:
      out.copy(b, start, end);
      return true;
    case ARRAY: {
      out.byte(0x5b);
      const last = tape[e + NEXT]!;
      for (let v = e + 4; v < last; v = tape[v + NEXT]!) {
        if (v > e + 4) out.byte(0x2c);
        if (!json(b, tape, v, out)) return false;
      }
      out.byte(0x5d);
      return true;
    }
    case OBJECT: {
      if (keysAlike(b, tape, e)) return false;
      out.byte(0x7b);
      const last = tape[e + NEXT]!;
      for (let k = e + 4; k < last; k = tape[k + 4 + NEXT]!) {
        if ((tape[k]! & ~ESCAPED) !== KEY) return false; // an escape written otherwise
        const ks = tape[k + START]!;
        const ke = tape[k + END]!;
        if (isIndexKey(b, ks, ke)) return false;
        if (k > e + 4) out.byte(0x2c);
        out.byte(QUOTE);
        out.copy(b, ks, ke);
        out.byte(QUOTE);
        out.byte(0x3a);
        if (!json(b, tape, k + 4, out)) return false;
      }
      out.byte(0x7d);
      return true;
    }
  }
  return false;
}
