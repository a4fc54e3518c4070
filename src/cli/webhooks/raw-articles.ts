/**
 * Where each article of a delivery sits in the raw body, so `listen` can
 * write jsonl by copying the signed bytes instead of re-encoding every
 * article (JSON.stringify and UTF-8 encoding were half of listen's time).
 * A compact JSON body (what JSON.stringify makes, and what the mock sends)
 * gives each article as one line already; anything else — a pretty-printed
 * body with raw newlines, an unexpected shape — answers undefined and the
 * caller re-encodes the parsed articles instead. The body was parsed by
 * JSON.parse first, so the bytes are known to be valid JSON.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const KEY = Buffer.from('articles');

const isSpace = (c: number | undefined): boolean =>
  c === 0x20 || c === 0x09 || c === LF || c === CR;

/**
 * Index just past the string whose opening quote is at `i`. Most of a body
 * is article text inside strings: the closing quote is found by the native
 * indexOf, and counted backslashes tell an escaped quote from the end.
 */
function skipString(body: Buffer, i: number): number {
  let from = i + 1;
  for (;;) {
    const quote = body.indexOf(QUOTE, from);
    if (quote < 0) return body.length + 1;
    let backslashes = 0;
    for (let k = quote - 1; k > i && body[k] === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

export interface ArticleRanges {
  /** Index of the array's `[` and of its `]`. */
  open: number;
  close: number;
  /** [start, end) of every element. */
  ranges: [number, number][];
}

/** Where the top-level `articles` array and each of its elements are, or undefined. */
export function articleRanges(body: Buffer): ArticleRanges | undefined {
  const n = body.length;
  let depth = 0;
  let i = 0;
  let arrayAt = -1;
  while (i < n && arrayAt < 0) {
    const c = body[i]!;
    if (c === QUOTE) {
      const end = skipString(body, i);
      if (depth === 1 && end - i - 2 === KEY.length && KEY.equals(body.subarray(i + 1, end - 1))) {
        let j = end;
        while (isSpace(body[j])) j++;
        if (body[j] === COLON) {
          j++;
          while (isSpace(body[j])) j++;
          if (body[j] !== OPEN_BRACKET) return undefined;
          arrayAt = j;
        }
      }
      i = end;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    i++;
  }
  if (arrayAt < 0) return undefined;
  const ranges: [number, number][] = [];
  i = arrayAt + 1;
  for (;;) {
    while (i < n && (isSpace(body[i]) || body[i] === COMMA)) i++;
    if (i >= n) return undefined;
    if (body[i] === CLOSE_BRACKET) return { open: arrayAt, close: i, ranges };
    if (body[i] !== OPEN_BRACE) return undefined;
    const start = i;
    let d = 0;
    while (i < n) {
      const c = body[i]!;
      if (c === QUOTE) {
        i = skipString(body, i);
        continue;
      }
      if (c === LF || c === CR) return undefined;
      i++;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) d++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        d--;
        if (d === 0) break;
      }
    }
    if (d !== 0) return undefined;
    ranges.push([start, i]);
  }
}
