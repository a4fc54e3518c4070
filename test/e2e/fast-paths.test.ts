import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { LiveArticles } from '../../src/mock/fixtures/generate.js';
import { BIN, runToEndFrom } from '../helpers/spawn.js';

/**
 * `news convert` with every fast path (worker threads, the byte readers and
 * writers of src/output/fast/, Parquet's column store) and with none
 * (NEWS_NO_FAST_PATHS=1: one thread, JSON.parse, hyparquet-writer's own
 * ParquetWriter), through the built binary, since the workers run dist/
 * code. The text formats must come out as the same bytes; Parquet as the
 * same rows and types (its bytes differ: another Snappy, other pages, and
 * the workers' row groups end where their chunks do). The input comes on
 * stdin: of unknown size, it is read from the lines' bytes on the workers
 * (record-source.ts; a named file only from 16 MB on, which
 * test/e2e/convert-bytes.test.ts checks), and its ~8 MB are more chunks and
 * row groups than the two workers take at once.
 */
const dir = mkdtempSync(join(tmpdir(), 'news-fast-paths-'));
let input: string;
/** ~6 KB each: 8 MB, 8 chunks of 1 MB, 4 row groups of 2 MB. */
const ARTICLES = 1300;

async function convert(format: string, fastPaths: boolean): Promise<[string, string]> {
  const { NEWS_API_KEY: _key, NEWS_NO_FAST_PATHS: _off, ...env } = process.env;
  const out = join(dir, `${fastPaths ? 'on' : 'off'}-${Math.random()}.${format}`);
  const run = await runToEndFrom(
    input,
    process.execPath,
    [BIN, 'convert', '--jobs', '2', '-o', out, '-v'],
    fastPaths ? env : { ...env, NEWS_NO_FAST_PATHS: '1' },
  );
  expect(run.code, run.stderr).toBe(0);
  return [out, run.stderr];
}

beforeAll(() => {
  const live = new LiveArticles(11);
  const lines = Array.from({ length: ARTICLES }, (_, i) =>
    JSON.stringify(live.make(900_000_000 + i, new Date(Date.UTC(2025, 0, 1) + i * 60_000))),
  );
  input = join(dir, 'api.jsonl');
  writeFileSync(input, `${lines.join('\n')}\n`);
});

describe('NEWS_NO_FAST_PATHS: the plain path everywhere, the same output', () => {
  it.each(['csv', 'tsv', 'json', 'jsonl'])('%s: the same bytes', async (format) => {
    const [[on, onLog], [off, offLog]] = await Promise.all([
      convert(format, true),
      convert(format, false),
    ]);
    expect(onLog).toContain('convert: 2 worker threads read on from line 1');
    expect(onLog).not.toContain('through JSON.parse');
    expect(offLog).toContain('convert: fast paths off (NEWS_NO_FAST_PATHS): no worker threads');
    expect(offLog).not.toContain('worker threads read on');
    const bytes = readFileSync(on);
    expect(bytes.length).toBeGreaterThan(6_000_000);
    expect(readFileSync(off).equals(bytes)).toBe(true);
  });

  it('parquet: the same rows and types', async () => {
    const [[on], [off, offLog]] = await Promise.all([
      convert('parquet', true),
      convert('parquet', false),
    ]);
    expect(offLog).toContain('no worker threads');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const read = async (path: string) => ({
      types: (await con.runAndReadAll(`DESCRIBE SELECT * FROM '${path}'`)).getRows(),
      rows: (await con.runAndReadAll(`SELECT * FROM '${path}' ORDER BY id`)).getRows(),
    });
    const [fast, plain] = [await read(on), await read(off)];
    expect(fast.rows).toHaveLength(ARTICLES);
    expect(plain.types).toEqual(fast.types);
    expect(plain.rows).toEqual(fast.rows);
    // Two writers did write them: the column store's Snappy and pages are not hyparquet-writer's.
    expect(readFileSync(off).equals(readFileSync(on))).toBe(false);
    con.closeSync();
  });
});
