/**
 * Output layout for data sets: -o templates, --partition-by read back by
 * DuckDB as one hive-partitioned table, appending runs that never rewrite a
 * file; --dry-run's real request and estimate; --log-file lines; windows.
 */
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/mock/server.js';
import { runCli } from '../../helpers/cli.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let mock: MockServer;
let dir: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, quiet: true, now: NOW });
  dir = mkdtempSync(join(tmpdir(), 'news-layout-'));
});
afterAll(async () => {
  await mock.close();
});

const api = () => ['--base-url', mock.url, '--api-key', 'api_live_mock_pro'];
const cli = (...argv: string[]) => runCli(argv, { now: NOW });

function files(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

async function query(sql: string): Promise<unknown[][]> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    return (await con.runAndReadAll(sql)).getRows();
  } finally {
    con.closeSync();
  }
}

describe('-o templates', () => {
  it('expands {date} {time} {from} {to} in UTC', async () => {
    const r = await cli(
      'search',
      ...api(),
      '--published-at-start',
      '2026-11-19',
      '--published-at-end',
      '2026-11-20T06:00:00Z',
      '--limit',
      '3',
      '-f',
      'jsonl',
      '-o',
      join(dir, 'news-{date}T{time}-{from}-{to}.jsonl'),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir)).toContain(
      'news-2026-11-20T120000-2026-11-19-2026-11-20T060000Z.jsonl',
    );
  });

  it('an unknown field is a usage error naming it', async () => {
    const r = await cli('search', ...api(), '--limit', '1', '-o', join(dir, 'x-{week}.csv'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown template field \{week\}/);
  });
});

describe('--partition-by', () => {
  it('writes hive partitions that DuckDB reads as one table; a second run adds files', async () => {
    const root = join(dir, 'dataset');
    const state = join(dir, 'ds-state.json');
    const args = [
      'search',
      ...api(),
      '--published-at-start',
      '2026-11-17T00:00:00Z',
      '--state',
      state,
      '-f',
      'parquet',
      '-o',
      root,
      '--partition-by',
      'day',
    ];
    const first = await cli(...args);
    expect(first.code, first.stderr).toBe(0);
    const before = files(root);
    expect(before.length).toBeGreaterThan(1);
    for (const f of before)
      expect(f).toMatch(/^published_date=2026-11-\d\d\/part-\d{8}T\d{6}Z-[0-9a-f]{6}\.parquet$/);
    const sizes = new Map(before.map((f) => [f, statSync(join(root, f)).mtimeMs]));

    const posted = await fetch(`${mock.url}/__mock/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ title: 'late', published_at: '2026-11-18T08:00:00Z' }]),
    });
    expect(posted.status).toBeLessThan(300);
    // A later run (a new run name) only adds a file.
    const second = await runCli(args, { now: new Date('2026-11-20T12:15:00Z') });
    expect(second.code, second.stderr).toBe(0);
    const after = files(root);
    expect(after.length).toBe(before.length + 1);
    for (const [f, mtime] of sizes) expect(statSync(join(root, f)).mtimeMs).toBe(mtime);
    const added = after.filter((f) => !before.includes(f));
    expect(added[0]).toMatch(/^published_date=2026-11-18\//);

    const glob = join(root, '**', '*.parquet');
    const rows = await query(
      `SELECT count(*), count(DISTINCT id), min(published_date), bool_and(strftime(published_at::TIMESTAMP, '%Y-%m-%d') = published_date::VARCHAR)
       FROM read_parquet('${glob}', hive_partitioning = true)`,
    );
    const full = await cli(
      'search',
      ...api(),
      '--published-at-start',
      '2026-11-17T00:00:00Z',
      '--all',
      '-f',
      'jsonl',
    );
    const total = full.stdout.split('\n').filter(Boolean).length;
    expect(Number(rows[0]![0])).toBe(total);
    expect(Number(rows[0]![1])).toBe(total);
    expect(String(rows[0]![2])).toBe('2026-11-17');
    expect(rows[0]![3]).toBe(true);
  });

  it('partitions by language.code for every format (jsonl here)', async () => {
    const root = join(dir, 'by-language');
    const r = await cli(
      'search',
      ...api(),
      '--published-at-start',
      '2026-11-19T00:00:00Z',
      '--all',
      '-f',
      'jsonl',
      '-o',
      root,
      '--partition-by',
      'language.code',
    );
    expect(r.code, r.stderr).toBe(0);
    for (const f of files(root)) {
      const language = /^language_code=([a-z]+)\//.exec(f)![1];
      for (const line of readFileSync(join(root, f), 'utf8').split('\n').filter(Boolean)) {
        expect((JSON.parse(line) as { language: string }).language).toBe(language);
      }
    }
  });

  it('needs -o DIR and -f', async () => {
    expect((await cli('search', ...api(), '--all', '--partition-by', 'day')).code).toBe(2);
    const r = await cli(
      'search',
      ...api(),
      '--all',
      '-o',
      join(dir, 'p'),
      '--partition-by',
      'week',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--partition-by must be one of day, month/);
  });
});

describe('--dry-run', () => {
  it('shows the per_page that --limit adds', async () => {
    const r = await cli('search', ...api(), '--limit', '30', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/"per_page": 30/);
    expect(r.stdout).toMatch(/--data-raw '\{"per_page":30\}'/);
  });

  it('on --all estimates pages and points from count', async () => {
    const count = await cli('count', ...api(), '--language-code', 'en');
    const n = Number(count.stdout.trim());
    const r = await cli(
      'search',
      ...api(),
      '--language-code',
      'en',
      '--per-page',
      '50',
      '--all',
      '--dry-run',
    );
    expect(r.code).toBe(0);
    const pages = Math.ceil(n / 50);
    expect(r.stdout).toContain(
      `estimate: ${n.toLocaleString('en-US')} matching articles, ${pages} pages of 50, about ${pages} points`,
    );
  });
});

describe('--log-file', () => {
  it('appends one JSON line per run, failed runs included, without the key', async () => {
    const log = join(dir, 'runs.log');
    const ok = await cli('search', ...api(), '--limit', '5', '-f', 'jsonl', '--log-file', log);
    expect(ok.code).toBe(0);
    const bad = await runCli(
      [
        'search',
        '--base-url',
        mock.url,
        '--api-key',
        'api_live_mock_nope',
        '--limit',
        '5',
        '--log-file',
        log,
      ],
      { now: NOW },
    );
    expect(bad.code).toBe(3);
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain('api_live_mock_nope');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ records: 5, pages: 1, points: 1, exit_code: 0, error: null });
    expect(lines[0]!['argv']).toEqual([
      'news',
      'search',
      '-f',
      'jsonl',
      '--limit',
      '5',
      '--log-file',
      log,
    ]);
    expect(lines[1]).toMatchObject({ records: 0, exit_code: 3 });
    expect(String(lines[1]!['error'])).toMatch(/HTTP 401/);
    for (const line of lines) {
      expect(Date.parse(String(line['start']))).not.toBeNaN();
      expect(Date.parse(String(line['end']))).not.toBeNaN();
    }
  });
});

describe('window splitting', () => {
  it('a title search over 60 days is fetched in windows and merged without duplicates', async () => {
    const args = [
      '--title',
      'market',
      '--published-at-start',
      '2026-09-21',
      '--published-at-end',
      '2026-11-20',
    ];
    const refused = await cli('search', ...api(), ...args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/ER0110/);
    const r = await cli('search', ...api(), ...args, '--all', '-f', 'jsonl', '-v');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/fetching 2 published_at windows/);
    const got = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: number; published_at: string });
    expect(new Set(got.map((a) => a.id)).size).toBe(got.length);
    // Newest window first, each window newest first: the whole list is newest first.
    const times = got.map((a) => Date.parse(a.published_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('--split-window gives the same articles as one request', async () => {
    const base = [
      'search',
      ...api(),
      '--published-at-start',
      '2026-11-01',
      '--language-code',
      'de',
      '--all',
      '-f',
      'jsonl',
    ];
    const whole = await cli(...base);
    const split = await cli(...base, '--split-window', '3d');
    expect(split.code, split.stderr).toBe(0);
    const ids = (s: string) =>
      s
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids(split.stdout)).toEqual(ids(whole.stdout));
  });
});
