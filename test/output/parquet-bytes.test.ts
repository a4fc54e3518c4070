/**
 * Convert's byte reader for Parquet (formats/parquet-bytes.ts and the tape
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
import { isoMillis } from '../../src/output/formats/parquet-bytes.js';
import { rowGroupEncoder } from '../../src/output/formats/parquet.js';
import type { ApiRecord } from '../../src/output/types.js';
import { TRICKY_ARTICLES } from './tricky-records.js';

/** A small seeded generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const col = (
  name: string,
  type: Column['type'],
  derive: Column['derive'] = 'value',
  alt?: string,
): Column => ({
  name,
  type,
  path: name.split('.'),
  derive,
  ...(alt === undefined ? {} : { alternatives: [alt.split('.')] }),
});

/** Every type and derivation, nested paths, and a path with an alternative. */
const COLUMNS: readonly Column[] = [
  col('id', 'int'),
  col('when', 'timestamp'),
  col('score', 'float'),
  col('flag', 'bool'),
  col('title', 'string'),
  col('a.b', 'string'),
  col('a.c.d', 'int', 'value', 'a.alt'),
  col('list', 'string', 'join'),
  col('people', 'string', 'names'),
  col('people', 'json', 'json'),
  col('misc', 'json', 'json'),
  col('any', 'string'),
];

const TEXT_PIECES = [
  'plain',
  'Zürich',
  'Москва',
  '東京',
  '🎉',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\uD83D',
  '\uDE00',
  ' ',
  '=1+2',
  '<b>',
  '',
];

function text(rand: () => number): string {
  let s = '';
  const n = Math.floor(rand() * 5);
  for (let i = 0; i < n; i++) s += TEXT_PIECES[Math.floor(rand() * TEXT_PIECES.length)];
  return rand() < 0.1 ? s.repeat(30) : s;
}

function number(rand: () => number): number {
  const r = rand();
  if (r < 0.4) return Math.floor(rand() * 1000) - 100;
  if (r < 0.8) return Math.round(rand() * 1e6) / 1000;
  if (r < 0.85) return rand() * 10 ** Math.floor(rand() * 40 - 20);
  if (r < 0.9) return 2 ** 53 + Math.floor(rand() * 10);
  if (r < 0.95) return -0;
  return Math.floor(rand() * 2 ** 40);
}

function value(rand: () => number, depth: number): unknown {
  const r = rand();
  if (r < 0.15) return null;
  if (r < 0.3) return rand() < 0.5;
  if (r < 0.5) return number(rand);
  if (r < 0.7 || depth > 3) return text(rand);
  if (r < 0.85) return Array.from({ length: Math.floor(rand() * 4) }, () => value(rand, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 4); i > 0; i--) {
    o[rand() < 0.2 ? String(Math.floor(rand() * 3)) : ['name', 'x', 'y', 'é'][i % 4]!] = value(
      rand,
      depth + 1,
    );
  }
  return o;
}

const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** A record: usually of the column's own type, sometimes not. */
function record(rand: () => number): Record<string, unknown> {
  const usual = (): boolean => rand() < 0.95;
  const r: Record<string, unknown> = {
    id: usual() ? Math.floor(rand() * 1e9) : value(rand, 0),
    when: usual()
      ? new Date(Math.floor(rand() * 4e12)).toISOString()
      : pick(rand, [
          '2025-02-30T00:00:00Z',
          '2025-01-01T24:00:00Z',
          'soon',
          '2025-01-01',
          12,
          null,
        ]),
    score: usual() ? number(rand) : value(rand, 0),
    flag: usual() ? rand() < 0.5 : value(rand, 0),
    title: usual() ? text(rand) : value(rand, 0),
    a: usual()
      ? { b: text(rand), c: { d: Math.floor(rand() * 100) }, alt: 7 }
      : pick(rand, [null, [1], { b: value(rand, 1), alt: value(rand, 1) }, 'x']),
    list: usual() ? [text(rand), number(rand), null, true, { k: text(rand) }] : value(rand, 0),
    people: usual()
      ? [{ name: text(rand), n: 1 }, { name: 5 }, 'x', { name: text(rand), name2: null }]
      : value(rand, 0),
    misc: value(rand, 0),
    any: usual() ? pick(rand, [text(rand), { k: [text(rand)] }, null]) : value(rand, 0),
  };
  for (const key of Object.keys(r)) if (rand() < 0.05) delete r[key];
  return r;
}

/**
 * JSON that parses to `v`, in a spelling picked at random: escapes for any
 * character, `\/`, whitespace, numbers written otherwise.
 */
function spell(v: unknown, rand: () => number): string {
  const ws = (): string => (rand() < 0.05 ? pick(rand, [' ', '\t', '\r', '  ']) : '');
  if (typeof v === 'string') {
    let out = '"';
    for (const ch of v.split('')) {
      const code = ch.charCodeAt(0);
      if (rand() < 0.02) out += `\\u${code.toString(16).padStart(4, '0')}`;
      else if (rand() < 0.05 && ch === '/') out += '\\/';
      else out += JSON.stringify(ch).slice(1, -1);
    }
    return `${out}"`;
  }
  if (typeof v === 'number') {
    const r = rand();
    if (Object.is(v, -0)) return pick(rand, ['-0', '-0.0', '-0e0']);
    if (r < 0.1 && Number.isInteger(v) && Math.abs(v) < 1e15) return `${v}.0`;
    if (r < 0.13) return v.toExponential();
    if (r < 0.15) return v.toExponential().toUpperCase().replace('E+', 'E');
    if (r < 0.2) return v.toPrecision(17); // the same double, written with more digits
    return JSON.stringify(v);
  }
  if (Array.isArray(v))
    return `[${ws()}${v.map((x) => spell(x, rand)).join(`${ws()},${ws()}`)}${ws()}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    // A key with an escape (rare: the byte reader leaves that record to JSON.parse).
    const key = (k: string): string => (rand() < 0.01 ? spell(k, rand) : JSON.stringify(k));
    const parts = entries.map(([k, x]) => `${key(k)}${ws()}:${ws()}${spell(x, rand)}`);
    // A key twice: JSON.parse keeps the last value, at the first key's place.
    if (entries.length > 0 && rand() < 0.05) {
      parts.unshift(`${key(entries[0]![0])}:${spell(value(rand, 3), rand)}`);
    }
    return `{${ws()}${parts.join(`${ws()},${ws()}`)}${ws()}}`;
  }
  return JSON.stringify(v);
}

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
