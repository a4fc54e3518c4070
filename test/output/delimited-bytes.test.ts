/**
 * Convert's byte writer for CSV and TSV (fast/delimited-bytes.ts) against
 * the record path (JSON.parse, then the flattener, csv.ts's quoting or
 * tsv.ts's escapes, the formula guard): every line it takes must give the
 * very bytes the record path gives, for generated records written as JSON
 * in many spellings, for the tricky articles and for API-shaped articles
 * from the mock's generator; a line it declines must leave nothing written.
 */
import { describe, expect, it } from 'vitest';
import { LiveArticles } from '../../src/mock/fixtures/generate.js';
import type { Column } from '../../src/output/columns.js';
import { ARTICLE_COLUMNS } from '../../src/output/columns.js';
import { csvEncoder } from '../../src/output/formats/csv.js';
import { DelimitedRows } from '../../src/output/fast/delimited-bytes.js';
import { TextOut } from '../../src/output/fast/tape-text.js';
import { tsvEncoder } from '../../src/output/formats/tsv.js';
import type { ApiRecord } from '../../src/output/types.js';
import { COLUMNS, col, random, record, spell } from './json-spellings.js';
import { TRICKY_ARTICLES } from './tricky-records.js';

const FORMATS = [
  ['csv', true],
  ['csv', false],
  ['tsv', true],
  ['tsv', false],
] as const;

/** Each line through the byte writer and through the record path: how many it took, all compared. */
function bothWays(
  format: 'csv' | 'tsv',
  sanitize: boolean,
  columns: readonly Column[],
  lines: readonly string[],
): number {
  const spec = { format, columns, projected: false, kind: 'generic' as const, sanitize };
  const encode = format === 'csv' ? csvEncoder(spec) : tsvEncoder(spec);
  const rows = DelimitedRows.for(format, columns, sanitize);
  expect(rows).toBeDefined();
  const out = new TextOut();
  let fast = 0;
  for (const line of lines) {
    const bytes = new TextEncoder().encode(`${line}\n`);
    out.length = 0;
    out.byte(0x2a); // what the page held before: left as it is
    const took = rows!.write(bytes, 0, bytes.length - 1, true, out);
    if (!took) {
      expect(out.length, line).toBe(1);
      continue;
    }
    fast++;
    // As the page encoder's text reaches the file: UTF-8, a lone surrogate as U+FFFD.
    const expected = new TextEncoder().encode(encode([JSON.parse(line) as ApiRecord]));
    const got = out.bytes.subarray(1, out.length);
    if (!Buffer.from(got).equals(expected)) {
      expect(Buffer.from(got).toString(), line).toBe(Buffer.from(expected).toString());
      expect(Buffer.from(got).toString('hex'), line).toBe(Buffer.from(expected).toString('hex'));
    }
  }
  return fast;
}

/** API-shaped articles, as the mock serves them. */
function apiArticles(n: number): string[] {
  const live = new LiveArticles(7);
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify(live.make(800_000_000 + i, new Date(Date.UTC(2025, 0, 1) + i * 60_000))),
  );
}

describe('csv and tsv byte writer', () => {
  it.each(FORMATS)('%s (formula guard %s): the record path bytes, in many spellings', (f, s) => {
    const rand = random(31);
    const lines: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const r = record(rand);
      lines.push(rand() < 0.3 ? JSON.stringify(r) : spell(r, rand));
    }
    const fast = bothWays(f, s, COLUMNS, lines);
    // Most lines are written from their bytes; the rest are left to the record path.
    expect(fast).toBeGreaterThan(750);
    expect(fast).toBeLessThan(1500);
  });

  it.each(FORMATS)('%s (formula guard %s): numbers, formulas and quoting', (f, s) => {
    const values = [
      '9007199254740993',
      '1.0',
      '1.50',
      '1e2',
      '-0',
      '0.0000001',
      '1e400',
      '-1e400',
      '"=1+2"',
      '"-1.5"',
      '"-1.5e3"',
      '"+"',
      '"@x"',
      '"\\tx"',
      '"\\rx"',
      '" x"',
      '"x "',
      '"a,b"',
      '"a\\"b"',
      '"a\\nb"',
      '"\\ufeffx"',
      '"x\uFEFF"',
      '"\\ud83d"',
      '"\\ud83d\\ude00"',
      '""',
      'true',
      '[]',
      '{}',
      '[1]',
      '{"a":"x"}',
      '["=x", 1, null, true, {"k": -0}]',
      '[{"name": "=x"}, {"name": "a, b"}, {"name": 3}]',
    ];
    const columns = [
      col('v', 'string'),
      col('v', 'json', 'json'),
      col('v', 'string', 'names'),
      col('v', 'string', 'join'),
      col('v', 'float'),
    ];
    const lines = values.map((v) => `{"v":${v}}`);
    expect(bothWays(f, s, columns, lines)).toBe(lines.length);
  });

  it.each(FORMATS)('%s (formula guard %s): the tricky and the API-shaped articles', (f, s) => {
    const lines = [...TRICKY_ARTICLES.map((r) => JSON.stringify(r)), ...apiArticles(200)];
    expect(bothWays(f, s, ARTICLE_COLUMNS, lines)).toBe(lines.length);
  });

  it.each(FORMATS)('%s (formula guard %s): empty keys and keys alike on the paths', (f, s) => {
    const columns = [col('', 'string'), { ...col('a', 'int'), path: ['a', ''] }, col('a.b', 'int')];
    const lines = [
      '{"":"x","a":{"":1,"b":2}}',
      '{"a":{"b":2,"":1},"":"y"}',
      '{"a":{"":1},"a":{"b":3}}', // the last wins, with everything under it
      '{"":"x","":"z"}',
    ];
    expect(bothWays(f, s, columns, lines)).toBe(lines.length);
  });

  it('declines what is not one record of JSON, writing nothing', () => {
    const declined = [
      '{"id": 1,}',
      '{"id": 01}',
      '{"title": "a\tb"}', // a raw tab in a string
      '{"title": "\\x"}',
      '{"id": 1} {"id": 2}',
      '{"results": [{"id": 1}]}', // an envelope: its records, not itself
      '{"ti\\u0074le": "escaped key"}',
      '{"misc": {"a": 1, "a": 2}}', // keys alike inside JSON text: left to JSON.stringify
    ];
    for (const format of ['csv', 'tsv'] as const) {
      const rows = DelimitedRows.for(format, COLUMNS, true)!;
      const out = new TextOut();
      for (const line of declined) {
        const bytes = new TextEncoder().encode(`${line}\n`);
        expect(rows.write(bytes, 0, bytes.length - 1, true, out), line).toBe(false);
        expect(out.length).toBe(0);
      }
    }
  });

  it('is not used for columns it does not read as the record path does', () => {
    expect(DelimitedRows.for('csv', [col('title', 'string')], true)).toBeDefined();
    expect(DelimitedRows.for('csv', [col('constructor', 'string')], true)).toBeUndefined();
    expect(DelimitedRows.for('tsv', [{ ...col('x', 'string'), path: [] }], true)).toBeUndefined();
  });
});
