/**
 * Convert's byte reader for Parquet (fast/parquet-bytes.ts and the tape
 * it reads) against the record path (JSON.parse, then the flattener and the
 * column type rules): generated records, written as JSON in many spellings
 * (escapes of every kind, whitespace, numbers in other forms, keys twice,
 * array-index keys, values of unexpected types), must give row groups of the
 * very same bytes either way, and a good share of them must go the byte way.
 * Lines that are not JSON must be declined with nothing added.
 */
import { describe, expect, it } from 'vitest';
import type { Column } from '../../src/output/columns.js';
import { ARTICLE_COLUMNS } from '../../src/output/columns.js';
import { isoMillis } from '../../src/output/fast/parquet-bytes.js';
import { rowGroupEncoder } from '../../src/output/formats/parquet.js';
import type { ApiRecord } from '../../src/output/types.js';
import { TRICKY_ARTICLES } from './tricky-records.js';
import { COLUMNS, col, random, record, spell } from './json-spellings.js';

async function encoders(columns: readonly Column[]) {
  const spec = {
    format: 'parquet' as const,
    columns,
    projected: false,
    kind: 'generic' as const,
    sanitize: false,
  };
  return [await rowGroupEncoder(spec), await rowGroupEncoder(spec)] as const;
}

/** The lines through the byte reader (the record path where it declines) and through the record path alone. */
async function bothWays(columns: readonly Column[], lines: readonly string[]) {
  const [bytes, records] = await encoders(columns);
  expect(bytes.addLine).toBeDefined();
  let fast = 0;
  for (const line of lines) {
    const buf = new TextEncoder().encode(`${line}\n`);
    if (bytes.addLine!(buf, 0, buf.length - 1, true)) fast++;
    else bytes.add(JSON.parse(line) as ApiRecord);
    records.add(JSON.parse(line) as ApiRecord);
  }
  const a = bytes.flush()!;
  const b = records.flush()!;
  return { fast, a, b };
}

describe('parquet byte reader', () => {
  it('gives the record path bytes for generated records in many spellings', async () => {
    const rand = random(23);
    for (let round = 0; round < 6; round++) {
      const lines: string[] = [];
      for (let i = 0; i < 400; i++) {
        const r = record(rand);
        lines.push(rand() < 0.3 ? JSON.stringify(r) : spell(r, rand));
      }
      const { fast, a, b } = await bothWays(COLUMNS, lines);
      expect(a.records).toBe(400);
      expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
      expect(a.parquet!.misfits).toBe(b.parquet!.misfits);
      expect(a.parquet!.columns).toEqual(b.parquet!.columns);
      // Most lines are read from their bytes; the rest go the record way.
      expect(fast).toBeGreaterThan(100);
      expect(fast).toBeLessThan(400);
    }
  });

  it('writes numbers inside JSON text as JSON.stringify does', async () => {
    const numbers = [
      '9007199254740993', // 2^53 + 1: the double is 2^53
      '1234567890123456', // 16 digits, exact
      '123456789012345678',
      '1.0',
      '1.50',
      '1e2',
      '1E+2',
      '-0',
      '-0.0',
      '0.000001',
      '0.0000001',
      '100000000000000000000',
      '1e21',
      '0.1',
      '-12.345',
      '5e-324',
      '1.7976931348623157e308',
    ];
    const lines = numbers.flatMap((n) => [
      `{"misc":[${n}]}`,
      `{"misc":{"n":${n}}}`,
      `{"misc":${n}}`,
      `{"list":[${n},"x"]}`,
      `{"id":${n},"score":${n}}`,
    ]);
    const { fast, a, b } = await bothWays(COLUMNS, lines);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    expect(fast).toBeGreaterThan(lines.length / 2);
  });

  it('reads the article columns of the tricky articles from their bytes', async () => {
    const lines = TRICKY_ARTICLES.map((r) => JSON.stringify(r));
    const [bytes, records] = await encoders(ARTICLE_COLUMNS);
    let fast = 0;
    for (const line of lines) {
      const buf = new TextEncoder().encode(`${line}\n`);
      if (bytes.addLine!(buf, 0, buf.length - 1, true)) fast++;
      else bytes.add(JSON.parse(line) as ApiRecord);
      records.add(JSON.parse(line) as ApiRecord);
    }
    expect(fast).toBe(lines.length);
    expect(Buffer.from(bytes.flush()!.bytes).equals(Buffer.from(records.flush()!.bytes))).toBe(
      true,
    );
  });

  it('reads empty keys on the paths (a column of generic records may be named "")', async () => {
    const columns = [col('', 'string'), { ...col('a', 'int'), path: ['a', ''] }, col('a.b', 'int')];
    const lines = [
      '{"":"x","a":{"":1,"b":2}}',
      '{"a":{"b":2,"":1},"":"y"}',
      '{"a":{"":1},"a":{"b":3}}',
    ];
    const { fast, a, b } = await bothWays(columns, lines);
    expect(fast).toBe(lines.length);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });

  it('declines what is not one record of JSON, adding nothing', async () => {
    const [bytes] = await encoders(COLUMNS);
    const declined = [
      '{"id": 1,}',
      '{"id": 01}',
      '{"id": 1.}',
      '{"id": -}',
      '{"id": 1e}',
      '{"id": tru}',
      '{"title": "a\tb"}', // a raw tab in a string
      '{"title": "\\x"}',
      '{"title": "\\u12G4"}',
      '{"title": "open}',
      '{"id": 1} {"id": 2}',
      '{"id": 1}]',
      '{"results": [{"id": 1}]}', // an envelope: its records, not itself
      `{"misc": ${'['.repeat(100)}${']'.repeat(100)}}`, // deeper than the reader goes
      '{"ti\\u0074le": "escaped key"}',
    ];
    for (const line of declined) {
      const buf = new TextEncoder().encode(`${line}\n`);
      expect(bytes.addLine!(buf, 0, buf.length - 1, true), line).toBe(false);
    }
    expect(bytes.rows).toBe(0);
    const ok = new TextEncoder().encode('{"id": 1}\n');
    expect(bytes.addLine!(ok, 0, ok.length - 1, true)).toBe(true);
    expect(bytes.rows).toBe(1);
  });

  it('is not used for columns it does not read as the record path does', async () => {
    const encoder = async (columns: Column[]) =>
      (await encoders(columns))[0].addLine === undefined ? 'none' : 'byte reader';
    expect(await encoder([col('title', 'string')])).toBe('byte reader');
    // The record path reads `constructor` from Object.prototype when a record lacks it.
    expect(await encoder([col('constructor', 'string')])).toBe('none');
    expect(await encoder([{ ...col('x', 'string'), path: [] }])).toBe('none');
    expect(await encoder([col('tags', 'int', 'join')])).toBe('none');
  });

  it('reads dates as Date.parse does, or leaves them to it', () => {
    const rand = random(5);
    for (let i = 0; i < 2000; i++) {
      const d = (n: number, w: number) => String(n).padStart(w, '0');
      const s = `${d(Math.floor(rand() * 10000), 4)}-${d(Math.floor(rand() * 14), 2)}-${d(Math.floor(rand() * 33), 2)}T${d(Math.floor(rand() * 26), 2)}:${d(Math.floor(rand() * 61), 2)}:${d(Math.floor(rand() * 61), 2)}${rand() < 0.5 ? `.${d(Math.floor(rand() * 1000), 3)}` : ''}Z`;
      const bytes = new TextEncoder().encode(s);
      const ms = isoMillis(bytes, 0, bytes.length);
      if (!Number.isNaN(ms)) expect(ms, s).toBe(Date.parse(s));
    }
  });
});
