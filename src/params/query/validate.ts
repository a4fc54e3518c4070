import { CODE_STANDARD, isCode, suggestCode } from '../codes.js';
import { isRelativeDate } from '../relative-dates.js';
import { checkValue, parseDateValue } from '../values.js';
import { fail } from './errors.js';
import type { QueryField } from './fields.js';
import type { Comparison } from './target.js';

/** A bare word with its place in the text. */
export interface WordItem {
  readonly text: string;
  readonly pos: number;
  readonly len: number;
}

/** One value of a predicate as written, before it is checked against its field. */
export type ValueItem =
  | ({ readonly kind: 'word' } & WordItem)
  | {
      readonly kind: 'phrase';
      readonly text: string;
      readonly slop: number | undefined;
      readonly pos: number;
      readonly len: number;
    }
  | {
      readonly kind: 'cmp';
      readonly op: 'gt' | 'gte' | 'lt' | 'lte';
      readonly value: WordItem;
      readonly pos: number;
      readonly len: number;
    }
  | {
      readonly kind: 'range';
      readonly from: WordItem;
      readonly to: WordItem;
      readonly pos: number;
      readonly len: number;
    };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** ER0704 at the first `*` or `?` of a word. */
export function rejectWildcard(word: WordItem): void {
  const i = word.text.search(/[*?]/);
  if (i >= 0) {
    fail(
      'ER0704',
      `a wildcard "${word.text[i]}" in "${word.text}"`,
      word.pos + i,
      1,
      'wildcards are not supported; quote the text to search it literally',
    );
  }
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Checks one value against its field and turns it into what the target evaluates. */
export function toComparison(field: QueryField, item: ValueItem): Comparison {
  switch (item.kind) {
    case 'word':
      rejectWildcard(item);
      return { op: 'eq', value: scalar(field, item.text, item.pos, item.len) };
    case 'phrase': {
      if (field.phrase) {
        checkText(field, item.text.trim(), item.pos, item.len);
        return { op: 'phrase', value: item.text, slop: item.slop ?? 0 };
      }
      if (item.slop !== undefined) {
        fail(
          'ER0710',
          `proximity (~N) on ${field.name}`,
          item.pos,
          item.len,
          'only title phrases take ~N',
        );
      }
      // Quotes only quote here: `source.domain:"a.com"` is `source.domain:a.com`.
      return { op: 'eq', value: scalar(field, item.text, item.pos, item.len) };
    }
    case 'cmp': {
      ordered(field, item.pos, item.len, 'a comparison');
      rejectWildcard(item.value);
      return { op: item.op, value: bound(field, item.value) };
    }
    case 'range': {
      ordered(field, item.pos, item.len, 'a range');
      const from = openBound(field, item.from);
      const to = openBound(field, item.to);
      if (from === undefined && to === undefined) {
        fail(
          'ER0703',
          'a range with no bound',
          item.pos,
          item.len,
          'give at least one end: [a TO *]',
        );
      }
      if (from !== undefined && to !== undefined && order(field, from) > order(field, to)) {
        fail('ER0703', `a range whose start is after its end`, item.pos, item.len);
      }
      return { op: 'range', from, to };
    }
  }
}

function ordered(field: QueryField, pos: number, len: number, what: string): void {
  if (field.type !== 'integer' && field.type !== 'number' && field.type !== 'date') {
    fail(
      'ER0710',
      `${what} on ${field.name}, a ${field.type} field`,
      pos,
      len,
      'comparisons and ranges take numeric and date fields',
    );
  }
}

function order(field: QueryField, value: number | string): number {
  return field.type === 'date' ? parseDateValue(String(value)) : Number(value);
}

function openBound(field: QueryField, word: WordItem): number | string | undefined {
  if (word.text === '*') return undefined;
  rejectWildcard(word);
  return bound(field, word);
}

/** A comparison or range bound: a number for numeric fields, the date text for dates. */
function bound(field: QueryField, word: WordItem): number | string {
  return field.type === 'date'
    ? date(field, word.text, word.pos, word.len)
    : number(field, word.text, word.pos, word.len);
}

function scalar(field: QueryField, text: string, pos: number, len: number): string {
  switch (field.type) {
    case 'integer':
    case 'number':
      return String(number(field, text, pos, len));
    case 'date':
      return date(field, text, pos, len);
    case 'flag':
      if (text !== '0' && text !== '1')
        fail('ER0703', `${field.name} must be 0 or 1 (got "${text}")`, pos, len);
      return text;
    case 'text':
      checkText(field, text, pos, len);
      return text;
    case 'keyword':
      return keyword(field, text, pos, len);
  }
}

function number(field: QueryField, text: string, pos: number, len: number): number {
  const check = NUMBER.test(text) ? checkValue(field.def, Number(text)) : undefined;
  if (check === undefined || !check.ok) {
    const rule =
      check && !check.ok
        ? check.rule
        : `must be ${field.type === 'integer' ? 'an integer' : 'a number'}`;
    fail('ER0703', `${field.name} ${rule} (got "${text}")`, pos, len);
  }
  // -0 and 0 are the same value; keep one spelling so trees compare equal.
  return Number(check.value) + 0;
}

function date(field: QueryField, text: string, pos: number, len: number): string {
  if (Number.isNaN(parseDateValue(text))) {
    fail(
      'ER0703',
      `${field.name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time (got "${text}")`,
      pos,
      len,
      // The query is text the service parses: the client does not rewrite it.
      isRelativeDate(text)
        ? 'relative dates are for the flags (--published-at-start -24h), not inside a query'
        : undefined,
    );
  }
  return text;
}

function checkText(field: QueryField, text: string, pos: number, len: number): void {
  const n = codePoints(text);
  if (n === 0) fail('ER0703', `an empty value for ${field.name}`, pos, len);
  if (n === 1)
    fail(
      'ER0705',
      `a single-character term "${text}"`,
      pos,
      len,
      'terms need at least two characters',
    );
  lengthBounds(field, text, n, pos, len);
}

function lengthBounds(field: QueryField, text: string, n: number, pos: number, len: number): void {
  const { minLength, maxLength } = field.def;
  if (minLength !== undefined && n < minLength) {
    fail(
      'ER0703',
      `${field.name} must be at least ${minLength} characters (got "${text}")`,
      pos,
      len,
    );
  }
  if (maxLength !== undefined && n > maxLength) {
    fail('ER0703', `${field.name} must be at most ${maxLength} characters (got ${n})`, pos, len);
  }
}

function keyword(field: QueryField, raw: string, pos: number, len: number): string {
  const { def } = field;
  const text = def.normalize?.(raw) ?? raw;
  if (text.trim() === '') fail('ER0703', `an empty value for ${field.name}`, pos, len);
  lengthBounds(field, text, codePoints(text), pos, len);
  if (def.enum && !def.enum.includes(text)) {
    fail('ER0703', `${field.name} must be one of ${def.enum.join(', ')} (got "${text}")`, pos, len);
  }
  if (def.pattern && !def.pattern.test(text)) {
    fail(
      'ER0703',
      `${field.name} must be ${def.patternHint ?? `like ${def.pattern}`} (got "${text}")`,
      pos,
      len,
      def.codes === undefined ? undefined : suggestCode(def.codes, text),
    );
  }
  if (def.codes !== undefined && !isCode(def.codes, text)) {
    fail(
      'ER0703',
      `${field.name} must be an ${CODE_STANDARD[def.codes]} (got "${text}")`,
      pos,
      len,
      suggestCode(def.codes, text),
    );
  }
  return text;
}
