/**
 * Convert's byte writer for json, jsonl and ndjson (fast/json-bytes.ts):
 * a line it takes must come out as the record path writes it
 * (JSON.stringify of JSON.parse, byte for byte), whatever its spelling; it
 * checks every line as JSON.parse would, and any line it cannot vouch for is
 * left to the record path with nothing written.
 */
import { describe, expect, it } from 'vitest';
import { LiveArticles } from '../../src/mock/fixtures/generate.js';
import { jsonLines } from '../../src/output/fast/json-bytes.js';
import { TextOut } from '../../src/output/fast/tape-text.js';
import { random, record, spell, value } from './json-spellings.js';
import { TRICKY_ARTICLES } from './tricky-records.js';

const LINES = jsonLines('', '\n');
const ARRAY_ITEMS = jsonLines(',\n', '');

/** Each line both ways; the number taken from their bytes. */
function bothWays(lines: readonly string[], topLevel = true): number {
  const out = new TextOut();
  let fast = 0;
  for (const line of lines) {
    const bytes = new TextEncoder().encode(`${line}\n`);
    for (const [write, expected] of [
      [LINES, `${JSON.stringify(JSON.parse(line))}\n`],
      [ARRAY_ITEMS, `,\n${JSON.stringify(JSON.parse(line))}`],
    ] as const) {
      out.length = 0;
      if (!write(bytes, 0, bytes.length - 1, topLevel, out)) {
        expect(out.length, line).toBe(0);
        continue;
      }
      if (write === LINES) fast++;
      const want = new TextEncoder().encode(expected);
      expect(Buffer.from(out.bytes.subarray(0, out.length)).equals(want), line).toBe(true);
    }
  }
  return fast;
}

describe('json lines byte writer', () => {
  it("writes JSON.stringify's bytes for records in many spellings", () => {
    const rand = random(41);
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const r = rand() < 0.5 ? record(rand) : (value(rand, 0) as Record<string, unknown>);
      if (r === null || typeof r !== 'object' || Array.isArray(r)) continue;
      lines.push(rand() < 0.3 ? JSON.stringify(r) : spell(r, rand));
    }
    const fast = bothWays(lines);
    expect(fast).toBeGreaterThan(lines.length / 3);
    expect(fast).toBeLessThan(lines.length);
  });

  it('takes the tricky and the API-shaped articles as they are', () => {
    const live = new LiveArticles(7);
    const lines = [
      ...TRICKY_ARTICLES.map((r) => JSON.stringify(r)),
      ...Array.from({ length: 200 }, (_, i) =>
        JSON.stringify(live.make(800_000_000 + i, new Date(Date.UTC(2025, 0, 1) + i * 60_000))),
      ),
    ];
    expect(bothWays(lines)).toBe(lines.length);
  });

  it('writes again what JSON.stringify would write otherwise', () => {
    const lines = [
      '{ "a" : 1 }',
      '{"a":1.0,"b":1e2,"c":-0,"d":0.0000001,"e":1.50}',
      '{"a":"\\u0041\\/\\u00e9\\u001F\\ud83d\\ude00\\ud83d"}',
      '{"a":"\\b\\f\\n\\r\\t\\"\\\\\\u001f"}',
      '{"a":"\\u001F\\u0008\\u000a\\u007f\\u00e9\\u0000"}',
      '{"a":1,"c":{"b\\n":1,"d\\t\\u0000":"\\"x\\""}}', // escaped keys inside
      '{"a":[ 1 , {"b" : [ ] } ]}',
      '{"__proto__":{"x":1},"constructor":2}',
      '{"results":{"not":"an array"}}',
    ];
    expect(bothWays(lines)).toBe(lines.length);
  });

  it('leaves to the record path what it cannot vouch for, writing nothing', () => {
    const left = [
      '{"b":1,"2":2}', // JSON.parse puts an array-index key first
      '{"a":1,"a":2}', // keys alike: the last wins, at the first one's place
      '{"x":{"a":1,"a":2}}',
      '{"k\\u0065y":1}', // an escaped key
      '{"a\\nb":1}', // at the top level, where an envelope's results are looked for
      '{"a\\nb":1,"a\\u000ab":2}', // the same key, spelled two ways
      '{"a\\nb":1,"a\\nb":2}',
      '{"results":[{"id":1}]}', // an envelope: its records, not itself
    ];
    const out = new TextOut();
    for (const line of left) {
      const bytes = new TextEncoder().encode(`${line}\n`);
      expect(LINES(bytes, 0, bytes.length - 1, true, out), line).toBe(false);
      expect(out.length).toBe(0);
    }
    // Objects of many keys are checked through a hash table.
    const many = Array.from({ length: 40 }, (_, i) => `"key${i % 7}${i}":${i}`);
    const twice = `{${many.join(',')},"key317":1}`;
    const bytes = new TextEncoder().encode(`{"a":[${twice}]}\n`);
    expect(LINES(bytes, 0, bytes.length - 1, true, out)).toBe(false);
    expect(bothWays([`{${many.join(',')}}`, `{"a":[{${many.join(',')}}]}`])).toBe(2);
    // In a JSON array (our own -f json read back), an envelope is one record.
    expect(bothWays(['{"results":[{"id":1}]}'], false)).toBe(1);
  });

  it('takes no line that JSON.parse refuses', () => {
    const bad = [
      '{"id": 1,}',
      '{"id": 01}',
      '{"id": 1.}',
      '{"id": -}',
      '{"id": +1}',
      '{"id": 1e}',
      '{"id": tru}',
      '{"id": NaN}',
      "{'id': 1}",
      '{id: 1}',
      '{"title": "a\tb"}',
      '{"title": "\\x"}',
      '{"title": "\\u12G4"}',
      '{"title": "open}',
      '{"id": 1} {"id": 2}',
      '{"id": 1}]',
      '{"a": [1, 2,]}',
      `{"deep": ${'['.repeat(100)}${']'.repeat(100)}}`,
    ];
    const out = new TextOut();
    for (const line of bad) {
      const bytes = new TextEncoder().encode(`${line}\n`);
      const took = LINES(bytes, 0, bytes.length - 1, true, out);
      expect(took, line).toBe(false);
      if (!line.startsWith('{"deep"')) expect(() => JSON.parse(line), line).toThrow();
    }
    expect(out.length).toBe(0);
  });
});
