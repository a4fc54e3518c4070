import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { LiveArticles } from '../../src/mock/fixtures/generate.js';
import { BIN, runToEnd } from '../helpers/spawn.js';

/**
 * `news convert`'s workers write csv, tsv, json and jsonl from the lines'
 * bytes (fast/delimited-bytes.ts, json-bytes.ts), and Parquet too
 * (parquet-bytes.ts); the main thread (`--jobs 1`) parses every line and
 * writes the records. Through the built binary, on API-shaped articles
 * from the mock's generator and on lines spelled in other ways than
 * JSON.stringify writes them, the output must be the same bytes whatever
 * the number of workers. Below 16 MB the workers read the text formats
 * through JSON.parse (record-source.ts): the inputs here are larger.
 */
const dir = mkdtempSync(join(tmpdir(), 'news-convert-bytes-'));
const TEXT_FORMATS = ['csv', 'tsv', 'json', 'jsonl'];

function convert(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const { NEWS_API_KEY: _key, ...env } = process.env;
  return runToEnd(process.execPath, [BIN, 'convert', ...args], env);
}

/** The input converted with 1, 2 and 3 workers; the outputs, and the runs' stderr. */
async function withJobs(
  input: string,
  format: string,
): Promise<[[Buffer, Buffer, Buffer], string[]]> {
  const outputs: Buffer[] = [];
  const stderr: string[] = [];
  for (const jobs of ['1', '2', '3']) {
    const out = join(dir, `${jobs}-${Math.random()}.${format}`);
    const run = await convert([input, '--jobs', jobs, '-o', out, '-v']);
    expect(run.code, run.stderr).toBe(0);
    outputs.push(readFileSync(out));
    stderr.push(run.stderr);
  }
  return [outputs as [Buffer, Buffer, Buffer], stderr];
}

let api: string;
let articles: string[];

beforeAll(() => {
  const live = new LiveArticles(7);
  // ~2,800 articles of ~6 KB (17.5 MB: from 16 MB on, the workers read the
  // text formats from the bytes): 17 chunks of 1 MB, nine row groups of 2 MB.
  articles = Array.from({ length: 2800 }, (_, i) =>
    JSON.stringify(live.make(800_000_000 + i, new Date(Date.UTC(2025, 0, 1) + i * 60_000))),
  );
  api = join(dir, 'api.jsonl');
  writeFileSync(api, `${articles.join('\n')}\n`);
});

describe('news convert from the lines bytes', () => {
  it.each(TEXT_FORMATS)(
    '%s: API-shaped articles, the same bytes with 1, 2 and 3 workers',
    async (format) => {
      const [[one, two, three], stderr] = await withJobs(api, format);
      expect(stderr[1]).toContain('convert: 2 worker threads read on from line 1');
      expect(stderr[1]).not.toContain('through JSON.parse');
      expect(stderr[1]).not.toContain('the main thread reads on');
      expect(one.length).toBeGreaterThan(15_000_000);
      expect(two.equals(one)).toBe(true);
      expect(three.equals(one)).toBe(true);
      if (format === 'jsonl') expect(one.equals(readFileSync(api))).toBe(true);
    },
  );

  it('reads a small input through JSON.parse on the workers, with the same bytes', async () => {
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, `${articles.slice(0, 800).join('\n')}\n`); // 5 MB
    const [[one, two], stderr] = await withJobs(small, 'csv');
    expect(stderr[1]).toContain(
      'convert: under 16 MB of input, csv, tsv and JSON are read through JSON.parse',
    );
    expect(two.equals(one)).toBe(true);
  });

  it('parquet: API-shaped articles, the same file with 2 and 3 workers, the same rows with 1', async () => {
    const [[one, two, three]] = await withJobs(api, 'parquet');
    expect(three.equals(two)).toBe(true);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const rows = async (bytes: Buffer): Promise<unknown[][]> => {
      const path = join(dir, `check-${Math.random()}.parquet`);
      writeFileSync(path, bytes);
      return (await con.runAndReadAll(`SELECT * FROM '${path}'`)).getRows();
    };
    const [a, b] = [await rows(one), await rows(two)];
    expect(b).toHaveLength(articles.length);
    expect(b).toEqual(a);
  });

  it.each(TEXT_FORMATS)('%s: the same bytes however the lines are spelled', async (format) => {
    // Lines JSON.stringify would write otherwise: spaces (Python's separators),
    // escapes of another form, numbers of another form, keys twice, an
    // envelope, a raw tab (read byte by byte), a byte that is not UTF-8 (the
    // chunk is read as text, with U+FFFD).
    const spelled = articles.map((line, i) => {
      if (i % 7 === 0) return line.replace(/":/g, '": ').replace(/,"/g, ', "');
      if (i % 11 === 0) return line.replace(/é/g, '\\u00e9').replace(/\//g, '\\/');
      if (i % 13 === 0) return `{"results": [${line}]}`;
      if (i % 17 === 0) return line.replace(/"id":(\d+),/, '"id":$1.0,');
      if (i % 19 === 0) return line.replace('{"id":', '{"title":"first","id":');
      if (i % 23 === 0) return line.replace(/\\n/g, '\\u000a').replace(/\\"/g, '\\u0022');
      return line;
    });
    spelled[900] = spelled[900]!.replace(/,"/, ',\t"');
    const text = Buffer.from(`${spelled.join('\n')}\n`);
    text[text.indexOf('"title":"', 8_000_000) + 10] = 0xff;
    const input = join(dir, `spelled-${format}.jsonl`);
    writeFileSync(input, text);
    const [[one, two, three], stderr] = await withJobs(input, format);
    expect(stderr[1]).toContain('worker threads read on');
    expect(stderr[1]).not.toContain('the main thread reads on');
    expect(two.equals(one)).toBe(true);
    expect(three.equals(one)).toBe(true);
    expect(one.toString().match(/\uFFFD/g)).toHaveLength(1);
  });
});
