/**
 * Small string helpers shared by the writers. Kept dependency-free: this file
 * is on the CLI's start-up path through index.ts.
 */

/**
 * `n` with comma thousands separators, as `n.toLocaleString('en-US')` writes
 * it ("1,234,567"). Not toLocaleString itself: its first call in a process
 * sets up ICU's number formats, ~20 ms, which a "wrote 1,234 records" line
 * would add to every export.
 */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

/**
 * Cuts `s` to at most `max` UTF-16 units without splitting a surrogate pair:
 * a lone high surrogate would become U+FFFD in every UTF-8 writer.
 */
export function truncateSafe(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = Math.max(0, max);
  const last = s.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return s.slice(0, end);
}

/** Cuts to `max` units including `marker`, surrogate-safe. */
export function truncateWithMarker(s: string, max: number, marker: string): string {
  if (s.length <= max) return s;
  return truncateSafe(s, max - marker.length) + marker;
}

// XML 1.0 allows only tab, LF and CR below U+0020, and forbids U+FFFE/U+FFFF.
// Lone surrogates are also not characters; they are replaced rather than
// dropped so that a cut emoji stays visible as U+FFFD.
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

// ES2024 string methods, present in Node 20 (V8 11.3) but not in the ES2023 lib.
declare global {
  interface String {
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

export function stripXmlIllegal(s: string): string {
  const legal = s.replace(XML_ILLEGAL, '');
  // toWellFormed turns each lone surrogate into U+FFFD; the native check is
  // far cheaper than a look-around regular expression over every text.
  return legal.isWellFormed() ? legal : legal.toWellFormed();
}

const XML_SPECIAL = /[&<>'"]/;
const XML_SPECIAL_ALL = /[&<>'"]/g;
const XML_ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&apos;',
  '"': '&quot;',
};

/**
 * `stripXmlIllegal`, then the five XML entities, in one pass: the same text
 * fast-xml-parser's builder writes with `processEntities` on, for writers that
 * escape before building and turn that option off.
 */
export function xmlText(s: string): string {
  const legal = stripXmlIllegal(s);
  return XML_SPECIAL.test(legal)
    ? legal.replace(XML_SPECIAL_ALL, (ch) => XML_ENTITY[ch] ?? ch)
    : legal;
}

// A cell starting with one of these is run as a formula by spreadsheet apps
// (OWASP "CSV injection"). Plain numbers in text form such as "-0.42" are not
// formulas and are left alone.
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Prefixes a `'` to a string that a spreadsheet would evaluate. */
export function neutraliseFormula(s: string): string {
  if (!FORMULA_START.test(s) || PLAIN_NUMBER.test(s)) return s;
  return "'" + s;
}

// The terminal sanitiser lives in its own module (one for every third-party
// text on a terminal); re-exported here for the writers that import it from text.ts.
export { terminalSafe } from './terminal-safe.js';
