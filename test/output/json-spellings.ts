/**
 * Records of every type and shape, and JSON that parses to them in many
 * spellings (escapes of every kind, whitespace, numbers in other forms, keys
 * twice, array-index keys, values of unexpected types): for the byte readers
 * of convert's workers (fast/parquet-bytes.ts, delimited-bytes.ts,
 * json-bytes.ts), which must give what JSON.parse and the record path give.
 * Seeded: the same cases on every run.
 */
import type { Column } from '../../src/output/columns.js';
/** A small seeded generator (mulberry32): the same cases on every run. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const col = (
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
export const COLUMNS: readonly Column[] = [
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
  // What CSV and TSV quote, escape or guard: a comma, a CR, a byte-order
  // mark, a formula's first characters, a number in text.
  ',',
  '\r',
  '\ufeff',
  '@',
  '+',
  '-1.5e3',
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

export function value(rand: () => number, depth: number): unknown {
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

export const pick = <T>(rand: () => number, xs: readonly T[]): T =>
  xs[Math.floor(rand() * xs.length)]!;

/** A record: usually of the column's own type, sometimes not. */
export function record(rand: () => number): Record<string, unknown> {
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
export function spell(v: unknown, rand: () => number): string {
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
