/**
 * Record values as DuckDB's appender takes them, one writer per column
 * type: a value of the column's own JavaScript type goes in as that type
 * (a string, a double, a BIGINT, a boolean; nested values as their JSON
 * text), so DuckDB stores it without parsing anything. A value of another
 * type goes in as text, which the appender casts to the column as SQL's
 * `::` would: one that does not fit (a word in a BIGINT column) fails the
 * batch instead of becoming NULL.
 *
 * Timestamps are the exception: the appender's own cast from text drops a
 * UTC offset, so an ISO 8601 string with `Z` or an offset (what the service
 * sends) is read here, to the microsecond, and any other value is cast by
 * DuckDB in SQL beforehand (`readStamps`), with SQL's rules and errors.
 *
 * Only types are imported from `@duckdb/node-api`: the module itself is
 * loaded by session.ts, which hands over the one constructor needed.
 */
import type { DuckDBAppender, DuckDBTimestampTZValue } from '@duckdb/node-api';
import type { SqlType } from '../database/fields.js';
import type { ApiRecord } from '../../types.js';

export type Writer = (appender: DuckDBAppender, value: unknown) => void;
export type MakeStamp = (micros: bigint) => DuckDBTimestampTZValue;

/** Any value as text: JSON for objects and lists, as a JSON path's `->>` reads it. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const ISO =
  /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(?:(Z)|([+-])(\d\d):?(\d\d))$/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Microseconds since the epoch of an ISO 8601 timestamp with `Z` or an
 * offset, or undefined for anything else (left to DuckDB's cast): other
 * shapes, no zone (DuckDB reads those in its session's time zone), dates
 * that do not exist, years before 1000 (JavaScript's Date reads 0–99 as 19xx).
 */
export function isoMicros(text: string): number | undefined {
  const m = ISO.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[];
  if (year === undefined || month === undefined || day === undefined) return undefined;
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > (DAYS[month - 1] as number)) {
    return undefined;
  }
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) {
    return undefined;
  }
  if ((hour as number) > 23 || (minute as number) > 59 || (second as number) > 59) return undefined;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (m[8] === undefined) {
    const offset = (Number(m[10]) * 60 + Number(m[11])) * 60_000;
    ms -= m[9] === '-' ? -offset : offset;
  }
  const fraction = m[7] === undefined ? 0 : Number(m[7].padEnd(6, '0'));
  const micros = ms * 1000 + fraction;
  return Number.isSafeInteger(micros) ? micros : undefined;
}

/**
 * Reads the timestamps of columns `names` among `rows` before anything is
 * appended: each ISO 8601 one into `writers.micros`, and each other value
 * into `odd`, as text, for DuckDB to cast.
 */
export function readStamps(
  rows: Iterable<ApiRecord>,
  names: readonly string[],
  writers: Writers,
  odd: Set<string>,
): void {
  const { micros } = writers;
  for (const row of rows) {
    for (const name of names) {
      const value = row[name];
      if (value === null || value === undefined) continue;
      const read = typeof value === 'string' ? isoMicros(value) : undefined;
      if (read !== undefined) micros.set(value as string, read);
      else odd.add(textOf(value));
    }
  }
}

/**
 * The writers of one batch. Its timestamps are read before anything is
 * appended (readStamps): `micros` holds each ISO 8601 one, `stamps` DuckDB's
 * reading of each other one.
 */
export class Writers {
  readonly micros = new Map<string, number>();
  readonly stamps = new Map<string, DuckDBTimestampTZValue>();

  constructor(private readonly stamp: MakeStamp) {}

  of(type: SqlType): Writer {
    switch (type) {
      case 'bigint':
        return (a, v) => {
          if (v === null || v === undefined) a.appendNull();
          // A 32-bit value needs no BigInt (the appender widens it): most ids, counts, positions.
          else if (typeof v === 'number' && (v | 0) === v) a.appendInteger(v);
          else if (typeof v === 'number' && Number.isSafeInteger(v)) a.appendBigInt(BigInt(v));
          else a.appendVarchar(textOf(v));
        };
      case 'double':
        return (a, v) => {
          if (v === null || v === undefined) a.appendNull();
          else if (typeof v === 'number') a.appendDouble(v);
          else a.appendVarchar(textOf(v));
        };
      case 'boolean':
        return (a, v) => {
          if (v === null || v === undefined) a.appendNull();
          else if (typeof v === 'boolean') a.appendBoolean(v);
          else a.appendVarchar(textOf(v));
        };
      case 'text':
        return (a, v) => {
          if (v === null || v === undefined) a.appendNull();
          else a.appendVarchar(textOf(v));
        };
      case 'json':
        return (a, v) => {
          if (v === null || v === undefined) a.appendNull();
          else a.appendVarchar(JSON.stringify(v));
        };
      case 'timestamptz':
        return (a, v) => {
          if (v === null || v === undefined) return a.appendNull();
          const micros = typeof v === 'string' ? this.micros.get(v) : undefined;
          const value =
            micros === undefined ? this.stamps.get(textOf(v)) : this.stamp(BigInt(micros));
          if (value === undefined) throw new Error(`no timestamp read for ${textOf(v)}`);
          a.appendTimestampTZ(value);
        };
    }
  }
}
