/**
 * A Parquet row group's values held by type (fast/parquet/columns.ts):
 * the type rules, nulls, values that do not fit their column (null, counted,
 * one warning), text as UTF-8, rows taken back, reuse after a reset. Then
 * the same through an export, read back by DuckDB.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import type { ColumnStore } from '../../src/output/fast/parquet/columns.js';
import { NULL_FLAG, TRUE, columnStore } from '../../src/output/fast/parquet/columns.js';
import { exportToFile } from './helpers.js';

/** A store's values as JS values: numbers (null for NaN), flags, text. */
function values(store: ColumnStore): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < store.rows; i++) {
    if (store.type === 'bool') {
      const f = store.values[i];
      out.push(f === NULL_FLAG ? null : f === TRUE);
    } else if (store.type === 'string' || store.type === 'json') {
      const at = store.values[i]!;
      out.push(
        at < 0
          ? null
          : new TextDecoder().decode(store.out.bytes.subarray(at + 4, at + 4 + store.length(i))),
      );
    } else {
      const n = store.values[i]!;
      out.push(Number.isNaN(n) ? null : n);
    }
  }
  return out;
}

describe('parquet column stores', () => {
  it('ints, floats and timestamps as numbers; null and misfits as null', () => {
    const ints = columnStore('int');
    expect([7, null, '12', 1.5, 'x', 2 ** 60, true].map((c) => ints.add(c))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(values(ints)).toEqual([7, null, 12, null, null, null, null]);

    const floats = columnStore('float');
    for (const c of [-0.42, -0, null, '1e3', Number.POSITIVE_INFINITY, 'NaN']) floats.add(c);
    expect(values(floats)).toEqual([-0.42, -0, null, 1000, null, null]);
    expect(Object.is(values(floats)[1], -0)).toBe(true);

    const times = columnStore('timestamp');
    expect(times.add('2025-03-04T05:06:07Z')).toBe(true);
    expect(times.add('yesterday')).toBe(false);
    expect(times.add(1_700_000_000_000)).toBe(false);
    expect(values(times)).toEqual([Date.parse('2025-03-04T05:06:07Z'), null, null]);
  });

  it('flags: booleans, null, and anything else as a misfit', () => {
    const flags = columnStore('bool');
    expect([true, false, null, 'true', 1].map((c) => flags.add(c))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(values(flags)).toEqual([true, false, null, null, null]);
  });

  it('text as UTF-8, each value after its length (a PLAIN page), lone surrogates as U+FFFD', () => {
    const column = columnStore('string');
    const long = `Zürich 🎉 ${'x'.repeat(80)}`;
    for (const c of ['en', long, null, 42, 'lone \uD83D']) column.add(c);
    expect(values(column)).toEqual(['en', long, null, '42', 'lone \uFFFD']);
    if (column.type !== 'string') throw new Error('a text column');
    const plain = column.out.bytes.subarray(0, column.out.length);
    expect([...plain.subarray(0, 6)]).toEqual([2, 0, 0, 0, 0x65, 0x6e]); // 2, "en"
    expect(column.values.subarray(0, 5)).toEqual(
      Int32Array.from([0, 6, -1, 6 + 4 + 93, 6 + 4 + 93 + 6]),
    );
  });

  it('grows past its first capacity, takes back rows and a half-written value, and starts empty again', () => {
    const ints = columnStore('int');
    const texts = columnStore('json');
    if (texts.type !== 'json') throw new Error('a text column');
    for (let i = 0; i < 1000; i++) {
      ints.add(i);
      texts.add(`[${i},${'"y",'.repeat(30)}0]`);
    }
    expect(values(ints)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(values(texts)[999]).toBe(`[999,${'"y",'.repeat(30)}0]`);
    const length = texts.out.length;
    ints.add(1000);
    texts.add('taken back');
    texts.begin();
    texts.out.copy(new TextEncoder().encode('half'), 0, 4);
    ints.truncate(1000);
    texts.truncate(1000);
    expect(texts.out.length).toBe(length);
    texts.add('after');
    expect(values(texts).slice(998)).toEqual([
      `[998,${'"y",'.repeat(30)}0]`,
      `[999,${'"y",'.repeat(30)}0]`,
      'after',
    ]);
    ints.reset();
    texts.reset();
    ints.add(5);
    texts.add('short');
    expect(values(ints)).toEqual([5]);
    expect(values(texts)).toEqual(['short']);
    expect(texts.out.length).toBe(4 + 5);
    // A buffer grown for a huge value is let go at the next group.
    texts.add('x'.repeat(5_000_000));
    expect(texts.out.bytes.length).toBeGreaterThan(5_000_000);
    texts.reset();
    expect(texts.out.bytes.length).toBeLessThan(1_000_000);
    texts.add('again');
    expect(values(texts)).toEqual(['again']);
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
