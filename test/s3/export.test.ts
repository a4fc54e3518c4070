/**
 * `-o s3://…` against a real S3 API (s3rver, started here): single exports,
 * gzip, a multipart upload, templates, `--all` checkpoints and `--resume`
 * beside an object, and `--state s3://…` with `--partition-by`. Every object
 * is read back with the AWS SDK straight from s3rver and compared with the
 * same export written to a local file, or read by DuckDB; never through our
 * own code.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { type S3Store, type StoreReader, startStore } from './store.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let mock: MockServer;
let flaky: MockServer;
let store: S3Store;
let reader: StoreReader;
let dir: string;
let B: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, quiet: true, now: NOW });
  flaky = await startMockServer({ port: 0, quiet: true, now: NOW, failRate: 0.5 });
  ({ store, reader } = await startStore());
  dir = mkdtempSync(join(tmpdir(), 'news-s3-export-'));
  B = `s3://${store.bucket}`;
});
afterAll(async () => {
  await mock.close();
  await flaky.close();
  await store.close();
});

const QUERY = ['--published-at-start', '2026-11-15T00:00:00Z', '--per-page', '25'];
const search = (server: MockServer, ...extra: string[]) =>
  runCli(
    ['search', '--base-url', server.url, '--api-key', 'api_live_mock_pro', ...QUERY, ...extra],
    {
      now: NOW,
      env: store.env,
    },
  );

describe('single exports', () => {
  it('a parquet object equals the local file, and DuckDB reads it', async () => {
    const local = join(dir, 'one.parquet');
    expect((await search(mock, '-o', local)).code).toBe(0);
    const r = await search(mock, '-o', `${B}/single/one.parquet`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`wrote 25 records to ${B}/single/one.parquet`);
    expect((await reader.bytes('single/one.parquet')).equals(readFileSync(local))).toBe(true);
    const rows = await reader.duck(
      'single/',
      'SELECT count(*)::INT, count(DISTINCT id)::INT FROM read_parquet({files})'.replace(
        '{files}',
        "'{files}'",
      ),
    );
    expect(rows).toEqual([[25, 25]]);
  });

  it('gzips a .gz key, and a template names the object', async () => {
    const local = join(dir, 'all.csv');
    expect((await search(mock, '--all', '-o', local)).code).toBe(0);
    const r = await search(mock, '--all', '-o', `${B}/gz/news-{date}.csv.gz`);
    expect(r.code, r.stderr).toBe(0);
    const body = await reader.bytes(`gz/news-${NOW.toISOString().slice(0, 10)}.csv.gz`);
    expect(gunzipSync(body).equals(readFileSync(local))).toBe(true);
    // Neither the checkpoint nor the spool stays beside it.
    expect(await reader.keys('gz/')).toEqual([`gz/news-2026-11-20.csv.gz`]);
  });

  it('a large export goes up in parts and is completed once', async () => {
    const big = await startMockServer({ port: 0, quiet: true, now: NOW, articles: 6000 });
    try {
      const args = [
        'search',
        '--base-url',
        big.url,
        '--api-key',
        'api_live_mock_pro',
        '--published-at-start',
        '2026-10-01',
        '--all',
        '--per-page',
        '100',
      ];
      const local = join(dir, 'big.jsonl');
      expect((await runCli([...args, '-o', local], { now: NOW })).code).toBe(0);
      const before = store.log.length;
      const r = await runCli([...args, '-o', `${B}/big/all.jsonl`], { now: NOW, env: store.env });
      expect(r.code, r.stderr).toBe(0);
      const ops = store.log
        .slice(before)
        .filter((l) => l.path.endsWith('/big/all.jsonl'))
        .map((l) => l.op);
      expect(readFileSync(local).length).toBeGreaterThan(8 * 1024 * 1024);
      expect(ops.filter((o) => o === 'UploadPart').length).toBeGreaterThanOrEqual(2);
      expect(ops.filter((o) => o === 'CompleteMultipartUpload')).toHaveLength(1);
      expect((await reader.bytes('big/all.jsonl')).equals(readFileSync(local))).toBe(true);
    } finally {
      await big.close();
    }
  }, 120_000);
});

describe('--all checkpoints beside an object', () => {
  it('a failed export leaves no object but a checkpoint; --resume ends identical', async () => {
    const local = join(dir, 'full.json');
    expect((await search(mock, '--all', '-o', local)).code).toBe(0);
    const url = `${B}/resume/out.json`;
    let failed = await search(flaky, '--all', '-o', url, '--retries', '0');
    // A run that fails before its first page keeps nothing: run it again (the faults are random).
    for (let i = 0; i < 10 && !(await reader.exists('resume/out.json.checkpoint.json')); i++) {
      expect(failed.stderr).not.toMatch(/checkpoint/);
      failed = await search(flaky, '--all', '-o', url, '--retries', '0');
    }
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `checkpointed in ${url}.partial/ and ${url}.checkpoint.json: the same command with --resume continues`,
    );
    expect(await reader.exists('resume/out.json')).toBe(false);
    const checkpoint = JSON.parse(
      (await reader.bytes('resume/out.json.checkpoint.json')).toString(),
    ) as {
      chunks: number;
      records: number;
    };
    expect((await reader.keys('resume/out.json.partial/')).length).toBeGreaterThanOrEqual(
      checkpoint.chunks,
    );
    const resumed = await search(mock, '--all', '-o', url, '--resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    if (checkpoint.records > 0) expect(resumed.stderr).toMatch(/resuming .* at page/);
    expect((await reader.bytes('resume/out.json')).equals(readFileSync(local))).toBe(true);
    expect(await reader.keys('resume/')).toEqual(['resume/out.json']);
  });
});

describe('--state s3://… with --partition-by', () => {
  async function post(articles: object[]): Promise<number[]> {
    const response = await fetch(`${mock.url}/__mock/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(articles),
    });
    return ((await response.json()) as { ids: number[] }).ids;
  }

  it('runs append new articles exactly once; the state and the data set live in the store', async () => {
    const run = () =>
      search(
        mock,
        '--state',
        `${B}/lake/news.state.json`,
        '-f',
        'parquet',
        '-o',
        `${B}/lake/data/`,
        '--partition-by',
        'day',
      );
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const [[count1]] = (await reader.duck(
      'lake/data/',
      "SELECT count(*)::INT FROM read_parquet('{files}')",
    )) as [[number]];
    const posted = await post([
      { title: 'late one', published_at: '2026-11-16T06:00:00Z' },
      { title: 'fresh one', published_at: '2026-11-20T11:59:00Z' },
    ]);
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    const rows = await reader.duck(
      'lake/data/',
      "SELECT count(*)::INT, count(DISTINCT id)::INT, count(DISTINCT published_date)::INT FROM read_parquet('{files}', hive_partitioning = true)",
    );
    expect(rows).toEqual([[count1! + posted.length, count1! + posted.length, expect.any(Number)]]);
    const state = JSON.parse((await reader.bytes('lake/news.state.json')).toString()) as Record<
      string,
      unknown
    >;
    expect(state['pending']).toBeUndefined();
    expect(state['watermark']).toEqual({ by: 'id', value: Math.max(...posted) });
    // Nothing staged or locked is left behind.
    const keys = await reader.keys('lake/');
    expect(keys.filter((k) => k.includes('_staging') || k.endsWith('.lock'))).toEqual([]);
  });

  it('a run killed between two publishes is completed by the next one', async () => {
    const state = `${B}/roll/news.state.json`;
    const run = () =>
      search(
        mock,
        '--state',
        state,
        '-f',
        'parquet',
        '-o',
        `${B}/roll/data/`,
        '--partition-by',
        'day',
      );
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const runName = /\((part-[^)]+)\)/.exec(first.stderr)![1]!;
    const published = (await reader.keys('roll/data/')).map((k) => k.slice('roll/data/'.length));
    const total = published.length;
    expect(total).toBeGreaterThan(2);
    const [[whole]] = (await reader.duck(
      'roll/data/',
      "SELECT count(*)::INT FROM read_parquet('{files}')",
    )) as [[number]];
    // Where kill -9 after the first publish leaves the store: the rest staged, the commit recorded.
    const staging = `${B}/roll/data/_staging/${runName}`;
    for (const rel of published.slice(1)) {
      await reader.move(`roll/data/${rel}`, `roll/data/_staging/${runName}/${rel}.staged`);
    }
    const done = JSON.parse((await reader.bytes('roll/news.state.json')).toString()) as object;
    const pending = {
      stage: 'publishing',
      run: runName,
      root: `${B}/roll/data/`,
      staging,
      files: published,
    };
    await reader.put('roll/news.state.json', JSON.stringify({ ...done, pending }));
    const [[partial, partialDistinct]] = (await reader.duck(
      'roll/data/',
      "SELECT count(*)::INT, count(DISTINCT id)::INT FROM read_parquet('{files}')",
    )) as [[number, number]];
    expect(partial).toBe(partialDistinct);

    const next = await run();
    expect(next.code, next.stderr).toBe(0);
    // It names what it published itself, not the files the killed run had published.
    expect(next.stderr).toContain(
      `completed an interrupted run (${runName}): published ${total - 1} of its ${total} files under ${B}/roll/data/ (1 was published before it stopped)`,
    );
    const rows = await reader.duck(
      'roll/data/',
      "SELECT count(*)::INT, count(DISTINCT id)::INT FROM read_parquet('{files}')",
    );
    expect(rows).toEqual([[whole, whole]]);
    expect(partial).toBeLessThan(whole);
    expect((await reader.keys('roll/')).filter((k) => k.includes('_staging'))).toEqual([]);
  });
});
