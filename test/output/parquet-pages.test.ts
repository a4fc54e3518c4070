/**
 * Our page writer (fast/parquet/pages.ts) read back by two independent
 * readers, DuckDB and hyparquet (the reader hyparquet-writer is tested
 * against): every value of every encoding it chooses (dictionary and PLAIN
 * text, integers, doubles and dates; flags PLAIN and RLE; all-null columns;
 * a text column spanning pages of 1 MB, with its offset index), and the
 * min/max statistics DuckDB reads from the footer.
 */
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects, readOffsetIndex } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../src/output/types.js';
import { exportToFile } from './helpers.js';

interface Row {
  id: number;
  lang: string | null;
  word: string | null;
  n: number | null;
  big: number | null;
  score: number | null;
  when: string | null;
  flag: boolean | null;
  nothing: string | null;
  rare: number | null;
  body: string;
}

/** 1,100 rows (three row groups of 500, 500, 100): repeated and distinct values, nulls, long text. */
function rows(): Row[] {
  return Array.from({ length: 1100 }, (_, i) => ({
    id: i,
    lang: i % 7 === 0 ? null : ['en', 'fr', 'de', 'Zürich 🎉'][i % 4]!,
    word: i % 5 === 0 ? null : `word ${i} ${'é'.repeat(i % 13)}`,
    n: i % 3 === 0 ? null : i % 10,
    big: i % 11 === 0 ? null : 2 ** 52 - i * 1_000_003,
    score: i % 9 === 0 ? null : i % 4 === 0 ? -0 : (i * 0.37) % 5,
    when: i % 6 === 0 ? null : new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
    flag: i % 8 === 0 ? null : i % 3 === 0,
    nothing: null,
    // Typed (an integer on the first page), null in every row of the last group.
    rare: i === 1 || (i >= 500 && i < 1000 && i % 2 === 1) ? i : null,
    // Row 700 (in the second group) makes its body column span two 1 MB pages.
    body: i === 700 || i === 701 ? 'x'.repeat(700_000) : `${i} ${'body '.repeat(i % 40)}`,
  }));
}

const FIELDS = [
  'id',
  'lang',
  'word',
  'n',
  'big',
  'score',
  'when',
  'flag',
  'nothing',
  'rare',
  'body',
];

const exported = (records: Row[]) =>
  exportToFile('parquet', records as unknown as ApiRecord[], { kind: 'generic', fields: FIELDS });

describe('parquet pages, read back', () => {
  it('every value, by DuckDB and by hyparquet', async () => {
    const records = rows();
    const { path } = await exported(records);
    const expected = records.map((r) => ({
      ...r,
      when: r.when === null ? null : Date.parse(r.when),
    }));

    const file = readFileSync(path);
    const buffer = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
    const read = (await parquetReadObjects({ file: buffer })) as Record<string, unknown>[];
    expect(read).toHaveLength(records.length);
    read.forEach((row, i) => {
      const want = expected[i]!;
      expect(row['id']).toBe(BigInt(want.id));
      expect(row['lang']).toBe(want.lang);
      expect(row['word']).toBe(want.word);
      expect(row['n']).toBe(want.n === null ? null : BigInt(want.n));
      expect(row['big']).toBe(want.big === null ? null : BigInt(want.big));
      expect(Object.is(row['score'], want.score)).toBe(true);
      expect(row['when'] instanceof Date ? row['when'].getTime() : row['when']).toBe(want.when);
      expect(row['flag']).toBe(want.flag);
      expect(row['nothing']).toBeNull();
      expect(row['rare']).toBe(want.rare === null ? null : BigInt(want.rare));
      expect(row['body']).toBe(want.body);
    });

    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const got = (
      await con.runAndReadAll(
        `SELECT id, lang, word, n, big, score, epoch_ms("when"), flag, nothing, rare, body FROM '${path}' ORDER BY id`,
      )
    ).getRows();
    expect(got).toEqual(
      expected.map((r) => [
        BigInt(r.id),
        r.lang,
        r.word,
        r.n === null ? null : BigInt(r.n),
        r.big === null ? null : BigInt(r.big),
        r.score,
        r.when === null ? null : BigInt(r.when),
        r.flag,
        null,
        r.rare === null ? null : BigInt(r.rare),
        r.body,
      ]),
    );
    con.closeSync();
  });

  it('encodings, pages and statistics as DuckDB reads them', async () => {
    const { path } = await exported(rows());
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const meta = (
      await con.runAndReadAll(
        `SELECT path_in_schema, encodings, stats_min_value, stats_max_value, stats_null_count
         FROM parquet_metadata('${path}') ORDER BY row_group_id, column_id`,
      )
    ).getRows();
    const group = (g: number) =>
      Object.fromEntries(
        meta
          .slice(g * FIELDS.length, (g + 1) * FIELDS.length)
          .map((r) => [String(r[0]), r.slice(1)]),
      );
    const byColumn = group(0);
    expect(byColumn['lang']![0]).toBe('PLAIN, RLE_DICTIONARY');
    expect(byColumn['n']![0]).toBe('PLAIN, RLE_DICTIONARY');
    expect(byColumn['word']![0]).toBe('PLAIN');
    expect(byColumn['big']![0]).toBe('PLAIN');
    expect(byColumn['flag']![0]).toBe('RLE');
    expect(byColumn['id']!.slice(1)).toEqual(['0', '499', 0n]);
    expect(byColumn['n']!.slice(1)).toEqual(['0', '9', 167n]);
    expect(byColumn['flag']!.slice(1)).toEqual(['false', 'true', 63n]);
    expect(byColumn['rare']!.slice(1)).toEqual(['1', '1', 499n]);
    expect(group(2)['rare']!.slice(1)).toEqual([null, null, 100n]);
    // Text columns carry no statistics (docs/PARQUET.md).
    expect(byColumn['word']!.slice(1)).toEqual([null, null, null]);
    expect(byColumn['nothing']!.slice(1)).toEqual([null, null, null]);
    con.closeSync();
    // The second group's body spans two pages: it has an offset index, which hyparquet reads.
    const file = readFileSync(path);
    const buffer = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
    const metadata = parquetMetadata(buffer);
    const body = FIELDS.indexOf('body');
    const indexed = metadata.row_groups.map(
      (g) => g.columns[body]!.offset_index_offset !== undefined,
    );
    expect(indexed).toEqual([false, true, false]);
    const chunk = metadata.row_groups[1]!.columns[body]!;
    const start = Number(chunk.offset_index_offset);
    const index = readOffsetIndex({
      view: new DataView(buffer, start, chunk.offset_index_length!),
      offset: 0,
    });
    expect(index.page_locations.map((p) => p.first_row_index)).toEqual([0n, 202n]);
  });
});
