import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../src/output/types.js';
import { BIN, runToEnd, runToEndFrom } from '../helpers/spawn.js';
import { TRICKY_ARTICLES } from '../output/tricky-records.js';

/**
 * `news convert` on worker threads, through the built binary (workers run
 * dist/ code): the output must be the very bytes of the main-thread path
 * (`--jobs 1`), whatever the input holds past the first chunk. Inputs are a
 * few MB so that several 1 MB chunks go to the workers. A named file under
 * 16 MB is read through JSON.parse on the workers; input on stdin, of
 * unknown size, from its bytes (fast/): the formats written from bytes
 * take stdin in the per-format runs, and csv and jsonl are also read from
 * named files below.
 */
const dir = mkdtempSync(join(tmpdir(), 'news-convert-parallel-'));

interface Result {
  code: number | null;
  stderr: string;
}

/** `news convert`, its input on stdin when `stdin` names a file (then of unknown size). */
function convert(args: string[], stdin?: string): Promise<Result> {
  const { NEWS_API_KEY: _key, ...env } = process.env;
  const argv = [BIN, 'convert', ...args];
  return stdin === undefined
    ? runToEnd(process.execPath, argv, env)
    : runToEndFrom(stdin, process.execPath, argv, env);
}

/** The input's argument and what goes on stdin: `-` and the file with `stdin`, else the file's name. */
function inputOf(input: string, stdin: boolean): [string, string | undefined] {
  return stdin ? ['-', input] : [input, undefined];
}

/**
 * The i-th of a run of varied tricky articles: the three short ones in
 * turn, and one in fifty the one whose 33 KB body puts an emoji across
 * 32,767 (in turn with the others, it made the inputs six times the size
 * their checks need, and the conversions as slow).
 */
function tricky(i: number): ApiRecord {
  return TRICKY_ARTICLES[i % 50 === 49 ? 3 : i % 3]!;
}

/** 3,000 varied tricky articles, and the one with a 40k body: ~4 MB of JSON Lines. */
function articles(): ApiRecord[] {
  const out: ApiRecord[] = [];
  for (let i = 0; i < 3000; i++) {
    const base = tricky(i);
    out.push({ ...base, id: i + 1, title: `${String(base['title'])} #${i}` });
  }
  out.push({ ...TRICKY_ARTICLES[4]!, id: 9999 });
  return out;
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

let jsonl: string;
let records: ApiRecord[];

beforeAll(() => {
  records = articles();
  jsonl = write('in.jsonl', records.map((r) => JSON.stringify(r)).join('\n') + '\n');
});

/** The input (a file, or on stdin with `stdin`) converted on the main thread and on two workers. */
async function both(
  input: string,
  format: string,
  stdin = false,
): Promise<[Buffer, Buffer, Result]> {
  const one = join(dir, `one-${format}-${Math.random()}.${format}`);
  const two = join(dir, `two-${format}-${Math.random()}.${format}`);
  const [from, feed] = inputOf(input, stdin);
  const a = await convert([from, '--jobs', '1', '-o', one], feed);
  const b = await convert([from, '--jobs', '2', '-o', two, '-v'], feed);
  expect(a.code, a.stderr).toBe(0);
  expect(b.code, b.stderr).toBe(0);
  return [readFileSync(one), readFileSync(two), b];
}

/** One run on two workers, where the expected bytes are known without a run on the main thread. */
async function onWorkers(input: string, format: string, stdin = false): Promise<[Buffer, Result]> {
  const out = join(dir, `two-${format}-${Math.random()}.${format}`);
  const [from, feed] = inputOf(input, stdin);
  const run = await convert([from, '--jobs', '2', '-o', out, '-v'], feed);
  expect(run.code, run.stderr).toBe(0);
  return [readFileSync(out), run];
}

describe('news convert on worker threads', () => {
  it.each(['json', 'jsonl', 'ndjson', 'csv', 'tsv', 'xml', 'rss'])(
    '%s: the same bytes as on the main thread',
    async (format) => {
      // The formats written from the lines' bytes get the input on stdin, where
      // the workers read it from its bytes; xml and rss are read through
      // JSON.parse either way (the named files below check that path for the others).
      const stdin = format !== 'xml' && format !== 'rss';
      // JSON Lines as JSON.stringify wrote them come out as they went in: the input is the main thread's bytes.
      const [one, two, run] =
        format === 'jsonl' || format === 'ndjson'
          ? [readFileSync(jsonl), ...(await onWorkers(jsonl, format, stdin))]
          : await both(jsonl, format, stdin);
      expect(run.stderr).toContain('convert: 2 worker threads read on from line');
      expect(run.stderr).not.toContain('the main thread reads on');
      expect(run.stderr.includes('read through JSON.parse')).toBe(!stdin);
      expect(two.length).toBeGreaterThan(format === 'rss' ? 500_000 : 3_000_000);
      expect(two.equals(one)).toBe(true);
    },
  );

  it('parquet: the same rows as on the main thread, in order', async () => {
    const [one, two, run] = await both(jsonl, 'parquet');
    expect(run.stderr).toContain('worker threads read on');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const read = async (bytes: Buffer): Promise<unknown[][]> => {
      const path = join(dir, `check-${Math.random()}.parquet`);
      writeFileSync(path, bytes);
      const reader = await con.runAndReadAll(
        `SELECT id, published_at, title, sentiment_overall_score, body FROM '${path}'`,
      );
      return reader.getRows();
    };
    const [a, b] = [await read(one), await read(two)];
    expect(b).toHaveLength(records.length);
    expect(b).toEqual(a);
    expect(b.map((row) => Number(row[0]))).toEqual(records.map((r) => r['id']));
  });

  it('parquet: every value as on the main thread, however the lines are spelled', async () => {
    // The workers read Parquet lines from their bytes (fast/parquet-bytes.ts);
    // the main thread (--jobs 1) parses them. Lines spelled otherwise than
    // JSON.stringify writes them, a chunk with tabs (read byte by byte), a
    // chunk with bytes that are not UTF-8 (read as text, with U+FFFD) and an
    // envelope must come out the same.
    const spelled = (r: ApiRecord, i: number): string => {
      const line = JSON.stringify(r);
      if (i % 7 === 0) return line.replace(/":/g, '": ').replace(/,"/g, ', "');
      if (i % 11 === 0) return line.replace(/é/g, '\\u00e9').replace(/\//g, '\\/');
      if (i % 13 === 0) return `{"results": [${line}]}`;
      if (i % 17 === 0) return line.replace(/,"id":(\d+)([,}])/g, ',"id":$1.0$2');
      return line;
    };
    const lines = records.map(spelled);
    lines[1500] = lines[1500]!.replace(/,"/, ',\t"');
    const text = Buffer.from(`${lines.join('\n')}\n`);
    text[text.indexOf('"title":"', 3_000_000) + 10] = 0xff; // a title with a replacement character
    const input = join(dir, 'spelled.jsonl');
    writeFileSync(input, text);
    const [one, two, run] = await both(input, 'parquet');
    expect(run.stderr).toContain('worker threads read on');
    expect(run.stderr).not.toContain('the main thread reads on');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const read = async (bytes: Buffer): Promise<unknown[][]> => {
      const path = join(dir, `spelled-${Math.random()}.parquet`);
      writeFileSync(path, bytes);
      return (await con.runAndReadAll(`SELECT * FROM '${path}'`)).getRows();
    };
    const [a, b] = [await read(one), await read(two)];
    expect(b).toHaveLength(records.length);
    expect(b).toEqual(a);
    // Columns: id, published_at, title, …
    expect(b.filter((row) => String(row[2]).includes('\uFFFD'))).toHaveLength(1);
  });

  it.each([
    // Read again from the first byte: this thread encodes nothing.
    ['reads again the chunks of a first page that spans three', 30_000, /read on from line 1\n/],
    // Too many to keep: the workers start after the first page.
    ['reads on after a first page that spans more than four chunks', 60_000, /from line 1\d\d\n/],
  ])('%s (bodies of %i bytes)', async (_, bodyLength, start) => {
    // The first page is 100 records: 3 or 6 MB of them, over 1 MB chunks.
    const big = records
      .slice(0, 400)
      .map((r, i) => ({ ...r, body: `${i} ${'b'.repeat(bodyLength)}` }));
    const input = write(`big-${bodyLength}.jsonl`, big.map((r) => JSON.stringify(r)).join('\n'));
    for (const format of ['jsonl', 'csv']) {
      const [one, two, run] = await both(input, format);
      expect(run.stderr).toMatch(start);
      expect(two.equals(one)).toBe(true);
    }
  });

  it('the same bytes over many chunks, with page buffers used again (file, gzip and stdout)', async () => {
    // ~11 MB: written pages' buffers go back to the workers many times over.
    const many = Array.from({ length: 9_000 }, (_, i) => {
      const base = tricky(i);
      return JSON.stringify({ ...base, id: i, title: `${String(base['title'])} ${i}` });
    });
    const input = write('many.jsonl', `${many.join('\n')}\n`);
    // Lines as JSON.stringify wrote them come out of -f jsonl as they went in
    // (on stdin, the workers read them from their bytes; the run to a gzipped
    // csv reads the named file through JSON.parse).
    const [jsonlOut] = await onWorkers(input, 'jsonl', true);
    expect(jsonlOut.equals(readFileSync(input))).toBe(true);
    // csv on two workers to a gzipped file and to stdout, against one run on the main thread.
    const one = join(dir, 'many-one.csv');
    expect((await convert([input, '--jobs', '1', '-o', one])).code).toBe(0);
    const gz = join(dir, 'many.csv.gz');
    const gzipped = await convert([input, '--jobs', '2', '-o', gz, '-v']);
    expect(gzipped.code, gzipped.stderr).toBe(0);
    expect(gzipped.stderr).toContain('convert: 2 worker threads read on from line 1');
    expect(gzipped.stderr).toContain('csv, tsv and JSON are read through JSON.parse');
    expect(gunzipSync(readFileSync(gz)).equals(readFileSync(one))).toBe(true);
    const piped = await runToEndFrom(
      input,
      process.execPath,
      [BIN, 'convert', '-', '--jobs', '2', '-f', 'csv'],
      { ...process.env, NEWS_API_KEY: '' },
    );
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(readFileSync(one, 'utf8'));
  }, 120_000); // four converts of 11 MB

  it('reads our own -f json output (an array, one record per line) on the workers', async () => {
    const array = join(dir, 'array.json');
    expect((await convert([jsonl, '--jobs', '1', '-o', array])).code).toBe(0);
    const [two, run] = await onWorkers(array, 'jsonl');
    expect(run.stderr).toContain('worker threads read on');
    expect(two.equals(readFileSync(jsonl))).toBe(true);
  });

  it('hands a pretty-printed record far into the file back to the main thread', async () => {
    const lines = records.map((r) => JSON.stringify(r));
    lines.splice(2500, 0, JSON.stringify({ ...TRICKY_ARTICLES[0]!, id: 77777 }, null, 2));
    const input = write('mixed.jsonl', lines.join('\n') + '\n');
    const [one, two, run] = await both(input, 'csv');
    expect(run.stderr).toMatch(
      /convert: line 2501 is not one record per line; the main thread reads on from line \d+\n/,
    );
    expect(two.equals(one)).toBe(true);
    expect(two.toString()).toContain('\r\n77777,');
  });

  it('hands a line longer than a chunk may grow (16 MB) back to the main thread', async () => {
    const lines = records.slice(0, 1000).map((r) => JSON.stringify(r));
    lines.push(JSON.stringify({ id: 88888, title: 'huge', body: 'x'.repeat(17 * 1024 * 1024) }));
    lines.push(...records.slice(1000, 1100).map((r) => JSON.stringify(r)));
    const input = write('huge-line.jsonl', lines.join('\n') + '\n');
    const [two, run] = await onWorkers(input, 'jsonl');
    expect(run.stderr).toContain(
      'convert: line 1001 is longer than a chunk may grow (16 MB); the main thread reads on from line 1001\n',
    );
    expect(two.equals(readFileSync(input))).toBe(true);
  });

  it('hands a line of more than 4 MB (more than a worker takes) back to the main thread', async () => {
    const lines = records.slice(0, 1500).map((r) => JSON.stringify(r));
    lines.push(
      JSON.stringify({ ...TRICKY_ARTICLES[0]!, id: 55555, body: 'Москва 🎉 '.repeat(400_000) }),
    );
    lines.push(...records.slice(1500, 1600).map((r) => JSON.stringify(r)));
    const input = write('big-line.jsonl', `${lines.join('\n')}\n`);
    const [one, two, run] = await both(input, 'csv');
    expect(run.stderr).toContain(
      'convert: line 1501 is longer than a worker takes (4 MB); the main thread reads on from line 1501\n',
    );
    expect(two.equals(one)).toBe(true);
  });

  it('reports bad JSON far into the file exactly as the main thread does, and leaves no file', async () => {
    const lines = records.map((r) => JSON.stringify(r));
    lines[2600] = '{"id": 1, "title": }';
    const input = write('bad.jsonl', lines.join('\n') + '\n');
    const outOne = join(dir, 'bad-one.csv');
    const outTwo = join(dir, 'bad-two.csv');
    const a = await convert([input, '--jobs', '1', '-o', outOne]);
    const b = await convert([input, '--jobs', '2', '-o', outTwo]);
    expect(a.code).toBe(2);
    expect(b.code).toBe(2);
    expect(b.stderr).toBe(a.stderr);
    expect(b.stderr).toContain('line 2601');
    expect(existsSync(outTwo)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('bad-two'))).toEqual([]);
  });

  it('says when an array ends in the middle', async () => {
    const text = '[\n' + records.map((r) => JSON.stringify(r)).join(',\n') + ',\n';
    const input = write('cut.json', text);
    const a = await convert([input, '--jobs', '1', '-o', join(dir, 'cut-one.jsonl')]);
    const b = await convert([input, '--jobs', '2', '-o', join(dir, 'cut-two.jsonl')]);
    expect(a.code).toBe(2);
    expect(b.stderr).toBe(a.stderr);
    expect(b.stderr).toContain('ends in the middle');
  });

  it('reads gzipped input (what -o x.jsonl.gz wrote) on the workers too', async () => {
    const input = join(dir, 'in.jsonl.gz');
    writeFileSync(input, gzipSync(readFileSync(jsonl)));
    const [two, run] = await onWorkers(input, 'jsonl');
    expect(run.stderr).toContain('worker threads read on');
    expect(two.equals(readFileSync(jsonl))).toBe(true);
    const damaged = write('damaged.jsonl.gz', '');
    const gzipped = gzipSync(readFileSync(jsonl));
    writeFileSync(damaged, gzipped.subarray(0, gzipped.length >> 1));
    const out = join(dir, 'damaged.csv');
    const bad = await convert([damaged, '-o', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error: cannot read the input: the gzip data is damaged');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a --jobs that is not a whole number from 1 to 16', async () => {
    const run = await convert([jsonl, '--jobs', '0', '-f', 'jsonl']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: --jobs must be a whole number from 1 to 16');
  });
});
