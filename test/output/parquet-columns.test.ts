/**
 * A Parquet row group's values held by type (formats/parquet-columns.ts):
 * what hyparquet-writer gets back, nulls, values that do not fit their
 * column (null, counted, one warning), free text as UTF-8, and reuse after a
 * reset. Then the same through an export, read back by DuckDB.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { columnValues } from '../../src/output/formats/parquet-columns.js';
import { Utf8Blocks } from '../../src/output/formats/utf8-blocks.js';
import { exportToFile } from './helpers.js';

const text = (v: unknown): unknown =>
  v instanceof Uint8Array ? `utf8:${new TextDecoder().decode(v)}` : v;

describe('parquet column values', () => {
  it('ints and timestamps as bigints, floats as numbers, null and misfits as null', () => {
    const ints = columnValues('int', new Utf8Blocks());
    expect([7, null, '12', 1.5, 'x', 2 ** 60, true].map((c) => ints.add(c))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(ints.values()).toEqual([7n, null, 12n, null, null, null, null]);

    const floats = columnValues('float', new Utf8Blocks());
    for (const c of [-0.42, -0, null, '1e3', Number.POSITIVE_INFINITY, 'NaN']) floats.add(c);
    expect(floats.values()).toEqual([-0.42, -0, null, 1000, null, null]);
    expect(Object.is(floats.values()[1], -0)).toBe(true);

    const times = columnValues('timestamp', new Utf8Blocks());
    expect(times.add('2025-03-04T05:06:07Z')).toBe(true);
    expect(times.add('yesterday')).toBe(false);
    expect(times.add(1_700_000_000_000)).toBe(false);
    expect(times.values()).toEqual([BigInt(Date.parse('2025-03-04T05:06:07Z')), null, null]);
  });

  it('flags: booleans, null, and anything else as a misfit', () => {
    const flags = columnValues('bool', new Utf8Blocks());
    expect([true, false, null, 'true', 1].map((c) => flags.add(c))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(flags.values()).toEqual([true, false, null, null, null]);
  });

  it('text: short as strings, free text as UTF-8, PLAIN when most of it is free text', () => {
    const utf8 = new Utf8Blocks();
    const column = columnValues('string', utf8);
    const long = `Zürich 🎉 ${'x'.repeat(80)}`;
    for (const c of ['en', long, null, 42, long]) column.add(c);
    expect(column.values().map(text)).toEqual(['en', `utf8:${long}`, null, '42', `utf8:${long}`]);
    expect(column.plain).toBe(false); // 2 of 5
    column.add(long);
    expect(column.plain).toBe(false); // 3 of 6: half is not most
    column.add(long);
    expect(column.plain).toBe(true); // 4 of 7
  });

  it('grows past its first capacity and starts empty after a reset', () => {
    const utf8 = new Utf8Blocks();
    const ints = columnValues('int', utf8);
    const texts = columnValues('json', utf8);
    for (let i = 0; i < 1000; i++) {
      ints.add(i);
      texts.add(`[${i},${'"y",'.repeat(30)}0]`);
    }
    expect(ints.values()).toEqual(Array.from({ length: 1000 }, (_, i) => BigInt(i)));
    expect(texts.values().map(text)[999]).toBe(`utf8:[999,${'"y",'.repeat(30)}0]`);
    ints.reset();
    texts.reset();
    utf8.reset();
    ints.add(5);
    texts.add('short');
    expect(ints.values()).toEqual([5n]);
    expect(texts.values()).toEqual(['short']);
  });
});

describe('values that do not fit', () => {
  it('are written as null with one warning, and DuckDB reads the rest', async () => {
    // Generic records: the first page makes `n` an integer column.
    const records = [
      { id: 1, n: 10, when: '2025-01-01T00:00:00Z' },
      { id: 2, n: 20, when: '2025-01-02T00:00:00Z' },
      { id: 3, n: 'thirty', when: 'soon' },
      { id: 4, n: 40, when: '2025-01-04T00:00:00Z' },
    ];
    const { path, warnings } = await exportToFile('parquet', records, { kind: 'generic' });
    expect(warnings).toEqual([
      'parquet: 2 values did not fit the column type and were written as null',
    ]);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const rows = (await con.runAndReadAll(`SELECT id, n, "when" IS NULL FROM '${path}'`)).getRows();
    expect(rows).toEqual([
      [1n, 10n, false],
      [2n, 20n, false],
      [3n, null, true],
      [4n, 40n, false],
    ]);
  });
});
