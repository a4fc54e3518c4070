import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { LiveArticles } from '../../src/mock/fixtures/generate.js';
import {
  AHEAD,
  BYTE_LINES_FROM,
  PARQUET_CHUNK,
  TEXT_CHUNK,
} from '../../src/output/record-source.js';
import { BIN, runToEnd, runToEndFrom } from '../helpers/spawn.js';

/**
 * `news convert`'s workers write csv, tsv, json and jsonl from the lines'
 * bytes (fast/delimited-bytes.ts, json-bytes.ts), and Parquet too
 * (parquet-bytes.ts); the main thread (`--jobs 1`) parses every line and
 * writes the records. Through the built binary, on API-shaped articles
 * from the mock's generator and on lines spelled in other ways than
 * JSON.stringify writes them, the output must be the same bytes whatever
 * the number of workers.
 *
 * A named file under 16 MB is read through JSON.parse on the workers
 * (record-source.ts); input of unknown size, as on stdin, is read from its
 * bytes whatever its size. So the inputs come on stdin, ~8 MB: more 1 MB
 * chunks than three workers hold at once, and more row groups than workers.
 * One 17.5 MB file checks the threshold itself (there the size is the point).
 */
const dir = mkdtempSync(join(tmpdir(), 'news-convert-bytes-'));
const TEXT_FORMATS = ['csv', 'tsv', 'json', 'jsonl'];
/** Articles in the stdin inputs: ~8 MB, 8 text chunks, 4 row groups. */
const ARTICLES = 1300;
/** Articles in the file read from its bytes for its size: ~17.5 MB. */
const BIG = 2800;

/** `news convert`, its input on stdin when `stdin` names a file (then of unknown size). */
function convert(args: string[], stdin?: string): Promise<{ code: number | null; stderr: string }> {
  const { NEWS_API_KEY: _key, ...env } = process.env;
  const argv = [BIN, 'convert', ...args];
  return stdin === undefined
    ? runToEnd(process.execPath, argv, env)
    : runToEndFrom(stdin, process.execPath, argv, env);
}

/**
 * The input (on stdin) converted with each number of workers; the outputs,
 * and the runs' stderr. Each worker costs ~0.4 s of CPU to warm up, whatever
 * the input's size: the text formats' tests take 1 and 3 workers on the
 * API-shaped articles, 1 and 2 on the lines spelled otherwise.
 */
async function withJobs(
  input: string,
  format: string,
  jobs: readonly number[],
): Promise<[Buffer[], string[]]> {
  const outputs: Buffer[] = [];
  const stderr: string[] = [];
  for (const n of jobs.map(String)) {
    const out = join(dir, `${n}-${Math.random()}.${format}`);
    const run = await convert(['-', '--jobs', n, '-o', out, '-v'], input);
    expect(run.code, run.stderr).toBe(0);
    outputs.push(readFileSync(out));
    stderr.push(run.stderr);
  }
  return [outputs, stderr];
}

let api: string;
let articles: string[];
let big: string;

beforeAll(() => {
  const live = new LiveArticles(7);
  const all = Array.from({ length: BIG }, (_, i) =>
    JSON.stringify(live.make(800_000_000 + i, new Date(Date.UTC(2025, 0, 1) + i * 60_000))),
  );
  articles = all.slice(0, ARTICLES);
  api = join(dir, 'api.jsonl');
  writeFileSync(api, `${articles.join('\n')}\n`);
  big = join(dir, 'big.jsonl');
  writeFileSync(big, `${all.join('\n')}\n`);
});

describe('news convert from the lines bytes', () => {
  it('the inputs cross the boundaries that matter', () => {
    const size = readFileSync(api).length;
    // Every worker gets several chunks, and chunk buffers come back to be used again.
    expect(size).toBeGreaterThan((AHEAD * 3 + 1) * TEXT_CHUNK);
    // Parquet: more row groups than workers.
    expect(size).toBeGreaterThan(3 * PARQUET_CHUNK);
    expect(readFileSync(big).length).toBeGreaterThan(BYTE_LINES_FROM);
  });

  it.each(TEXT_FORMATS)(
    '%s: API-shaped articles, the same bytes with 1 and 3 workers',
    async (format) => {
      const [[one, three], stderr] = await withJobs(api, format, [1, 3]);
      expect(stderr[1]).toContain('convert: 3 worker threads read on from line 1');
      expect(stderr[1]).not.toContain('through JSON.parse');
      expect(stderr[1]).not.toContain('the main thread reads on');
      expect(one!.length).toBeGreaterThan(6_000_000);
      expect(three!.equals(one!)).toBe(true);
      if (format === 'jsonl') expect(one!.equals(readFileSync(api))).toBe(true);
    },
  );

  it('reads a named file of 16 MB or more from the bytes too', async () => {
    // jsonl: what one worker-less run writes is the input itself (above).
    const out = join(dir, 'big-out.jsonl');
    const run = await convert([big, '--jobs', '2', '-o', out, '-v']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('convert: 2 worker threads read on from line 1');
    expect(run.stderr).not.toContain('through JSON.parse');
    expect(run.stderr).not.toContain('the main thread reads on');
    expect(readFileSync(out).equals(readFileSync(big))).toBe(true);
  });

  it('reads a small named file through JSON.parse on the workers, with the same bytes', async () => {
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, `${articles.slice(0, 400).join('\n')}\n`); // 2.5 MB: three chunks
    const [one, two] = await Promise.all(
      ['1', '2'].map(async (n) => {
        const out = join(dir, `small-${n}.csv`);
        const run = await convert([small, '--jobs', n, '-o', out, '-v']);
        expect(run.code, run.stderr).toBe(0);
        return { bytes: readFileSync(out), stderr: run.stderr };
      }),
    );
    expect(two!.stderr).toContain(
      'convert: under 16 MB of input, csv, tsv and JSON are read through JSON.parse',
    );
    expect(two!.stderr).toContain('convert: 2 worker threads read on from line 1');
    expect(two!.bytes.equals(one!.bytes)).toBe(true);
  });

  it('parquet: API-shaped articles, the same file with 2 and 3 workers, the same rows with 1', async () => {
    const [[one, two, three], stderr] = await withJobs(api, 'parquet', [1, 2, 3]);
    expect(stderr[1]).toContain('convert: 2 worker threads read on from line 1');
    expect(three!.equals(two!)).toBe(true);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const rows = async (bytes: Buffer): Promise<unknown[][]> => {
      const path = join(dir, `check-${Math.random()}.parquet`);
      writeFileSync(path, bytes);
      return (await con.runAndReadAll(`SELECT * FROM '${path}'`)).getRows();
    };
    const [a, b] = [await rows(one!), await rows(two!)];
    expect(b).toHaveLength(articles.length);
    expect(b).toEqual(a);
    con.closeSync();
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
    spelled[300] = spelled[300]!.replace(/,"/, ',\t"');
    const text = Buffer.from(`${spelled.join('\n')}\n`);
    // In a chunk of its own, far from the tab's.
    text[text.indexOf('"title":"', 5 * TEXT_CHUNK) + 10] = 0xff;
    const input = join(dir, `spelled-${format}.jsonl`);
    writeFileSync(input, text);
    const [[one, two], stderr] = await withJobs(input, format, [1, 2]);
    expect(stderr[1]).toContain('convert: 2 worker threads read on from line 1');
    expect(stderr[1]).not.toContain('the main thread reads on');
    expect(two!.equals(one!)).toBe(true);
    expect(one!.toString().match(/\uFFFD/g)).toHaveLength(1);
  });
});
