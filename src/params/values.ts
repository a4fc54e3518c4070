import { CODE_STANDARD, isCode, suggestCode } from './codes.js';
import type { ParamDef, RawValue } from './types.js';

/**
 * Checks one value against its parameter definition and converts it to the type
 * the API expects. Shared by the client (which refuses a bad value before sending)
 * and the mock (which, like the real service, silently ignores it).
 */
export type ValueCheck =
  | { ok: true; value: string | number }
  | { ok: false; rule: string; code?: string | undefined; hint?: string | undefined };

const WILDCARD = /[*?]/;
const CONTROL_CHAR = /[\u0000-\u001f\u007f-\u009f]/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-](\d{2}):?(\d{2}))?$/;

/** Splits a comma-separated list the way the API does: trimmed, empty parts dropped. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A real day of the calendar: `Date.parse` would roll 2026-02-30 over to 2 March. */
function isCalendarDate(y: string, m: string, d: string): boolean {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * Milliseconds since the epoch for a date parameter value, or NaN. Dates
 * without a zone are UTC. Impossible dates and times (February 30, hour 24,
 * minute 60, an offset beyond ±23:59) are NaN, not the neighbouring instant.
 */
export function parseDateValue(value: string): number {
  const day = DATE_ONLY.exec(value);
  if (day !== null) {
    if (!isCalendarDate(day[1]!, day[2]!, day[3]!)) return Number.NaN;
    return Date.parse(`${value}T00:00:00Z`);
  }
  const t = DATE_TIME.exec(value);
  if (t === null) return Number.NaN;
  const [, y, mo, d, h, mi, sec, , zone, zh, zm] = t;
  if (!isCalendarDate(y!, mo!, d!)) return Number.NaN;
  if (Number(h) > 23 || Number(mi) > 59 || (sec !== undefined && Number(sec) > 59)) {
    return Number.NaN;
  }
  if (zh !== undefined && (Number(zh) > 23 || Number(zm) > 59)) return Number.NaN;
  const iso = value.replace(' ', 'T');
  return Date.parse(zone === undefined ? `${iso}Z` : iso);
}

function describeBounds(def: ParamDef): string {
  const { min, max } = def;
  const low = min === undefined ? '' : def.exclusiveMin ? `greater than ${min}` : `at least ${min}`;
  if (min !== undefined && max !== undefined && !def.exclusiveMin) return `from ${min} to ${max}`;
  if (max === undefined) return low;
  return low === '' ? `at most ${max}` : `${low} and at most ${max}`;
}

function checkNumber(def: ParamDef, raw: RawValue): ValueCheck {
  const kind = def.type === 'integer' ? 'an integer' : 'a number';
  const text = String(raw).trim();
  const n = typeof raw === 'number' ? raw : text === '' ? Number.NaN : Number(text);
  const bounds = describeBounds(def);
  const rule = bounds === '' ? `must be ${kind}` : `must be ${kind} ${bounds}`;
  if (!Number.isFinite(n) || (def.type === 'integer' && !Number.isInteger(n)))
    return { ok: false, rule };
  if (def.min !== undefined && (def.exclusiveMin ? n <= def.min : n < def.min))
    return { ok: false, rule };
  if (def.max !== undefined && n > def.max) return { ok: false, rule };
  return { ok: true, value: n };
}

interface Problem {
  rule: string;
  hint?: string | undefined;
}

function checkOne(def: ParamDef, value: string): Problem | undefined {
  if (def.minLength !== undefined && value.length < def.minLength) {
    return { rule: `must be at least ${def.minLength} characters` };
  }
  if (def.maxLength !== undefined && value.length > def.maxLength) {
    return { rule: `must be at most ${def.maxLength} characters` };
  }
  if (def.enum && !def.enum.includes(value))
    return { rule: `must be one of ${def.enum.join(', ')}` };
  if (def.pattern && !def.pattern.test(value)) {
    // A name typed for a code (`english`) fails the shape first: the hint is the code's.
    const hint = def.codes === undefined ? undefined : suggestCode(def.codes, value);
    return { rule: `must be ${def.patternHint ?? `like ${def.pattern}`}`, hint };
  }
  if (def.codes !== undefined && !isCode(def.codes, value))
    return { rule: `must be an ${CODE_STANDARD[def.codes]}`, hint: suggestCode(def.codes, value) };
  return undefined;
}

/** Checks and converts a raw value for `def`; cross-parameter rules live in validate.ts. */
export function checkValue(def: ParamDef, raw: RawValue): ValueCheck {
  switch (def.type) {
    case 'integer':
    case 'number':
      return checkNumber(def, raw);
    case 'flag': {
      // A bare flag (`--has-image`) arrives as `true`.
      const text = raw === true ? '1' : raw === false ? '0' : String(raw).trim();
      if (text === '0' || text === '1') return { ok: true, value: Number(text) };
      return { ok: false, rule: 'must be 0 or 1' };
    }
    case 'switch': {
      const text = raw === true ? '1' : raw === false ? '0' : String(raw).trim().toLowerCase();
      if (text === '1' || text === 'true') return { ok: true, value: '1' };
      if (text === '0' || text === 'false') return { ok: true, value: '0' };
      return { ok: false, rule: 'must be 0, 1, true or false' };
    }
    case 'date': {
      const text = String(raw).trim();
      if (Number.isNaN(parseDateValue(text))) {
        return { ok: false, rule: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time' };
      }
      return { ok: true, value: text };
    }
    case 'string': {
      const text = String(raw).trim();
      if (text === '') return { ok: false, rule: 'must not be empty' };
      // A NUL or an escape in a filter is a paste accident, never a search term
      // (found by the client fuzz suite: it was sent as is).
      const control = CONTROL_CHAR.exec(text);
      if (control !== null) {
        const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
        return { ok: false, rule: `must not contain a control character (U+${code})` };
      }
      if (def.noWildcard && WILDCARD.test(text)) {
        return {
          ok: false,
          rule: 'must not contain a wildcard (* or ?): the service would silently drop the whole filter',
        };
      }
      if (def.list !== undefined) {
        // "us,,fr" or "," hold an empty value: the user meant something there.
        if (text.split(',').some((v) => v.trim() === '')) {
          return { ok: false, rule: `must not hold an empty value (got "${text}")` };
        }
        const values = splitList(text).map((v) => def.normalize?.(v) ?? v);
        if (values.length > def.list) {
          return {
            ok: false,
            rule: `takes at most ${def.list} values (got ${values.length}); the service would silently drop the rest`,
          };
        }
        for (const v of values) {
          const problem = checkOne(def, v);
          if (problem)
            return {
              ok: false,
              rule: `each value ${problem.rule} (got "${v}")`,
              code: def.code,
              hint: problem.hint,
            };
        }
        return { ok: true, value: values.join(',') };
      }
      const value = def.normalize?.(text) ?? text;
      const problem = checkOne(def, value);
      return problem
        ? { ok: false, rule: problem.rule, code: def.code, hint: problem.hint }
        : { ok: true, value };
    }
  }
}
