/** XLSX read back with exceljs, Parquet with DuckDB: values, types, limits. */
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ARTICLE_COLUMNS } from '../../src/output/columns.js';
import { ROW_GROUP_ROWS, parquetNames } from '../../src/output/formats/parquet.js';
import { TRUNCATION_MARKER, XLSX_CELL_LIMIT, sheetName } from '../../src/output/formats/xlsx.js';
import { FAST_PATHS, exportToFile, withFastPaths } from './helpers.js';
import { TRICKY_ARTICLES } from './tricky-records.js';

const HEADER = ARTICLE_COLUMNS.map((c) => c.name);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('xlsx', () => {
  it('reads back with exceljs: header, frozen row, dates, formulas, long cells', async () => {
    const { path, warnings } = await exportToFile('xlsx', TRICKY_ARTICLES);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('news search --title test');
    expect(ws.rowCount).toBe(6);
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(HEADER);
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const cell = (row: number, name: string): ExcelJS.Cell =>
      ws.getRow(row).getCell(HEADER.indexOf(name) + 1);
    expect(cell(2, 'id').value).toBe(1);
    expect(cell(2, 'published_at').value).toEqual(new Date('2025-03-04T05:06:07Z'));
    expect(cell(2, 'published_at').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(cell(2, 'sentiment.overall.score').value).toBe(-0.42);
    expect(cell(2, 'is_free').value).toBe(true);
    expect(cell(3, 'title').value).toBe(TRICKY_ARTICLES[1]!['title']);
    expect(cell(4, 'title').value).toBe('\'=HYPERLINK("http://evil.example","click")');
    const body = String(cell(5, 'body').value);
    expect(body.length).toBeLessThanOrEqual(XLSX_CELL_LIMIT);
    expect(body.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(LONE_SURROGATE.test(body)).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('32,767');
    expect(ws.getColumn(HEADER.indexOf('title') + 1).width).toBe(60);
  });
});

describe('xlsx sheet names', () => {
  it.each([
    ['news /v1/news/everything', 'news v1 news everything'],
    ['news  /v1/people', 'news v1 people'],
    ["'[a]: b*?c\\d'", 'a b c d'],
    ['news search --language-code en --title rates', 'news search --language-code en'],
    ['x'.repeat(40), 'x'.repeat(31)],
    [' // ', 'articles'],
    [undefined, 'articles'],
  ])('%j → %j', (title, name) => {
    expect(sheetName(title, 'articles')).toBe(name);
  });

  it('the sheet of a list export has one space between words', async () => {
    const { path } = await exportToFile('xlsx', TRICKY_ARTICLES, {
      title: 'news /v1/news/everything',
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    expect(wb.worksheets[0]!.name).toBe('news v1 news everything');
  });
});

describe.each(FAST_PATHS)('parquet, %s', (_, noFastPaths) => {
  withFastPaths(noFastPaths);

  it('reads back with DuckDB: rows, types, values', async () => {
    const { path } = await exportToFile('parquet', TRICKY_ARTICLES);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const count = await con.runAndReadAll(`SELECT count(*) FROM '${path}'`);
    expect(count.getRows()[0]![0]).toBe(5n);
    const describe = await con.runAndReadAll(`DESCRIBE SELECT * FROM '${path}'`);
    const types = Object.fromEntries(describe.getRows().map((r) => [String(r[0]), String(r[1])]));
    expect(Object.keys(types)).toEqual(parquetNames(ARTICLE_COLUMNS));
    expect(types['id']).toBe('BIGINT');
    expect(types['published_at']).toBe('TIMESTAMP WITH TIME ZONE');
    expect(types['sentiment_overall_score']).toBe('DOUBLE');
    expect(types['is_breaking']).toBe('BOOLEAN');
    expect(types['title']).toBe('VARCHAR');
    expect(types['entities_names']).toBe('VARCHAR');
    const rows = await con.runAndReadAll(
      `SELECT id, epoch_ms(published_at), title, source_rank_opr, sentiment_overall_score, is_breaking, entities_names, body, author_name
       FROM '${path}' ORDER BY id`,
    );
    const r = rows.getRows();
    expect(r[0]).toEqual([
      1n,
      1741064767000n,
      TRICKY_ARTICLES[0]!['title'],
      5n,
      -0.42,
      false,
      'Acme; Inc; Zoë',
      TRICKY_ARTICLES[0]!['body'],
      "Ann O'Neil",
    ]);
    expect(r[1]![2]).toBe(TRICKY_ARTICLES[1]!['title']);
    expect(r[1]![3]).toBe(7n);
    expect(r[1]![8]).toBeNull();
    expect(r[2]![5]).toBe(true);
    expect(r[2]![2]).toBe('=HYPERLINK("http://evil.example","click")'); // no sanitising in Parquet
    expect(r[3]![7]).toBe(TRICKY_ARTICLES[3]!['body']); // no 32,767 limit either
    expect(r[4]).toEqual([5n, null, null, null, null, null, null, null, null]);
    const meta = await con.runAndReadAll(
      `SELECT count(*) FROM parquet_metadata('${path}') WHERE column_id = 0`,
    );
    expect(meta.getRows()[0]![0]).toBe(1n);
    con.closeSync();
  });

  it('an empty export is a file DuckDB reads: the columns, no rows', async () => {
    const { path } = await exportToFile('parquet', []);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const count = await con.runAndReadAll(`SELECT count(*) FROM '${path}'`);
    expect(count.getRows()[0]![0]).toBe(0n);
    const columns = await con.runAndReadAll(`DESCRIBE SELECT * FROM '${path}'`);
    expect(columns.getRows().map((r) => String(r[0]))).toEqual(parquetNames(ARTICLE_COLUMNS));
    con.closeSync();
  });

  it('writes a row group every ROW_GROUP_ROWS rows', async () => {
    const records = Array.from({ length: ROW_GROUP_ROWS * 2 + 5 }, (_, i) => ({
      id: i,
      title: `t${i}`,
    }));
    const { path } = await exportToFile('parquet', records, { fields: ['id', 'title'] });
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const groups = await con.runAndReadAll(
      `SELECT count(DISTINCT row_group_id), sum(row_group_num_rows) / 2 FROM parquet_metadata('${path}')`,
    );
    expect(groups.getRows()[0]).toEqual([3n, ROW_GROUP_ROWS * 2 + 5]);
    const last = await con.runAndReadAll(
      `SELECT id, title FROM '${path}' ORDER BY id DESC LIMIT 1`,
    );
    expect(last.getRows()[0]).toEqual([
      BigInt(ROW_GROUP_ROWS * 2 + 4),
      `t${ROW_GROUP_ROWS * 2 + 4}`,
    ]);
    con.closeSync();
  });

  it('writes free text PLAIN, byte for byte, across row groups; short repeated text as a dictionary', async () => {
    const emoji = '🎉 emoji, Москва, مرحبا, e\u0301 ';
    const records = Array.from({ length: ROW_GROUP_ROWS * 2 + 7 }, (_, i) => ({
      id: i,
      language: i % 2 === 0 ? 'en' : 'fr',
      // Lengths differ per row so a value read from the wrong offset shows.
      body: `${i}: ${emoji.repeat(1 + (i % 5))}${i === 3 ? 'lone \uD83D surrogate' : ''}`,
    }));
    const { path } = await exportToFile('parquet', records, { fields: ['id', 'language', 'body'] });
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const rows = await con.runAndReadAll(`SELECT id, language, body FROM '${path}' ORDER BY id`);
    expect(rows.getRows()).toEqual(
      records.map((r) => [BigInt(r.id), r.language, r.body.replace('\uD83D', '\uFFFD')]),
    );
    const encodings = await con.runAndReadAll(
      `SELECT DISTINCT path_in_schema, encodings FROM parquet_metadata('${path}') ORDER BY 1`,
    );
    expect(encodings.getRows()).toEqual([
      ['body', 'PLAIN'],
      ['id', expect.stringContaining('PLAIN')],
      ['language', 'PLAIN, RLE_DICTIONARY'],
    ]);
    con.closeSync();
  });
});
