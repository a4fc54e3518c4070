/**
 * The DuckDB session's reading of values before they reach the appender:
 * ISO 8601 timestamps with a zone to the microsecond (anything else is left
 * to DuckDB's cast); and each id's last version in a batch, with 42 and
 * "42" the same id, as both engines' merges write it (database/last-versions.ts).
 */
import { describe, expect, it } from 'vitest';
import { lastVersions } from '../../src/output/destinations/database/last-versions.js';
import { isoMicros, readStamps, Writers } from '../../src/output/destinations/duckdb/values.js';

describe('isoMicros', () => {
  it('reads an ISO timestamp with Z or an offset to the microsecond', () => {
    for (const text of [
      '2026-11-17T10:00:00Z',
      '2026-11-17T10:00:00.123Z',
      '1999-12-31T23:59:59.999Z',
      '2026-11-17T12:30:00+02:30',
      '2026-11-17T01:00:00-05:00',
    ]) {
      expect(isoMicros(text), text).toBe(Date.parse(text) * 1000);
    }
    expect(isoMicros('2026-11-17T10:00:00.000001Z')).toBe(
      Date.parse('2026-11-17T10:00:00Z') * 1000 + 1,
    );
    expect(isoMicros('2026-11-17 10:00:00.5+0100')).toBe(
      Date.parse('2026-11-17T09:00:00.5Z') * 1000,
    );
    expect(isoMicros('2024-02-29T00:00:00Z')).toBe(Date.parse('2024-02-29T00:00:00Z') * 1000);
  });

  it('leaves to DuckDB what it does not read exactly', () => {
    for (const text of [
      '2026-11-17', // a date alone
      '2026-11-17T10:00:00', // no zone: DuckDB's session time zone
      '2026-11-17T10:00Z', // no seconds
      '2026-11-17T10:00:00.1234567Z', // past microseconds
      '2026-02-29T00:00:00Z', // not a leap year
      '2100-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-11-17T24:00:00Z',
      '2026-11-17T23:60:00Z',
      '0099-01-01T00:00:00Z', // Date.UTC reads years 0-99 as 19xx
      'not a date',
    ]) {
      expect(isoMicros(text), text).toBeUndefined();
    }
  });

  it('reads the ISO timestamps of a batch, and collects the others as text for DuckDB to cast', () => {
    const odd = new Set<string>();
    const writers = new Writers(() => {
      throw new Error('no DuckDB here');
    });
    readStamps(
      [
        { a: '2026-11-17T10:00:00Z', b: null },
        { a: '2026-11-17', b: 5 },
        { a: undefined, b: { x: 1 } },
      ],
      ['a', 'b'],
      writers,
      odd,
    );
    expect([...writers.micros]).toEqual([
      ['2026-11-17T10:00:00Z', Date.UTC(2026, 10, 17, 10) * 1000],
    ]);
    expect([...odd]).toEqual(['2026-11-17', '5', '{"x":1}']);
  });
});

describe('lastVersions', () => {
  it('keeps the last version of each id, in the order the last versions came', () => {
    const records = [
      { id: 1, v: 'a' },
      { id: '2', v: 'b' },
      { id: '1', v: 'c' },
      { v: 'no id' },
      { id: 2, v: 'd' },
      { v: 'no id either' },
    ];
    expect(lastVersions(records).map((r) => r['v'])).toEqual(['c', 'no id', 'd', 'no id either']);
  });

  it('returns the batch itself when no id repeats', () => {
    const records = [{ id: 1 }, { id: 2 }, { id: '9007199254740993' }, { id: '9007199254740992' }];
    expect(lastVersions(records)).toBe(records);
  });
});
