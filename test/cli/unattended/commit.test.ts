/**
 * The commit of partitioned and --state outputs (src/cli/unattended/commit.ts), on
 * disk: a run killed between two publishes, or while staging, is completed
 * by the same command and every record ends in the data set exactly once;
 * meanwhile DuckDB reads neither staged files nor any record twice.
 * The crash points are made exactly: a finished run's files are put back
 * where a killed run would have left them, with the state it would have
 * written (kill -9 at random moments: s3/faults.test.ts and bench/).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stagedName } from '../../../src/cli/unattended/commit.js';
import { type MockServer, startMockServer } from '../../../src/mock/server.js';
import { runCli } from '../../helpers/cli.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, quiet: true, now: NOW });
});
afterAll(async () => {
  await mock.close();
});

async function post(articles: object[]): Promise<number[]> {
  const response = await fetch(`${mock.url}/__mock/articles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(articles),
  });
  return ((await response.json()) as { ids: number[] }).ids;
}

function files(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

/** [rows, distinct ids] as DuckDB reads the data set with the glob the docs give. */
async function readBack(root: string): Promise<[number, number]> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const rows = (
      await con.runAndReadAll(
        `SELECT count(*)::INT, count(DISTINCT id)::INT FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true)`,
      )
    ).getRows();
    return rows[0] as [number, number];
  } finally {
    con.closeSync();
  }
}

function setup(): { root: string; state: string; run: () => ReturnType<typeof runCli> } {
  const dir = mkdtempSync(join(tmpdir(), 'news-commit-'));
  const root = join(dir, 'data');
  const state = join(dir, 'news.state.json');
  const run = () =>
    runCli(
      [
        'search',
        '--base-url',
        mock.url,
        '--api-key',
        'api_live_mock_pro',
        '--published-at-start',
        '2026-11-18T00:00:00Z',
        '--state',
        state,
        '-f',
        'parquet',
        '-o',
        root,
        '--partition-by',
        'day',
      ],
      { now: NOW },
    );
  return { root, state, run };
}

const parts = (root: string, run: string) =>
  files(root).filter((f) => f.includes(run) && !f.startsWith('_'));

describe('a run killed between two publishes', () => {
  it('is completed by the next run: every record once, never a staged file read', async () => {
    const { root, state, run } = setup();
    expect((await run()).code).toBe(0);
    const [first] = await readBack(root);
    const posted = await post([
      { title: 'one', published_at: '2026-11-18T06:00:00Z' },
      { title: 'two', published_at: '2026-11-19T06:00:00Z' },
      { title: 'three', published_at: '2026-11-20T11:00:00Z' },
    ]);
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    const done = JSON.parse(readFileSync(state, 'utf8')) as Record<string, unknown>;
    const runName = /\((part-[^)]+)\)/.exec(second.stderr)![1]!;
    const published = parts(root, runName);
    expect(published.length).toBeGreaterThanOrEqual(2);

    // Where kill -9 after the first publish leaves things: one file out, the rest staged, the commit recorded.
    const staging = join(root, '_staging', runName);
    const back = published.slice(1);
    for (const rel of back) {
      mkdirSync(dirname(join(staging, rel)), { recursive: true });
      renameSync(join(root, rel), join(staging, stagedName(rel)));
    }
    const pending = { stage: 'publishing', run: runName, root, staging, files: published };
    writeFileSync(state, JSON.stringify({ ...done, pending }));

    // What a reader sees meanwhile: part of the run, nothing twice, nothing staged.
    const [rows, distinct] = await readBack(root);
    expect(rows).toBe(distinct);
    expect(rows).toBeLessThan(first + posted.length);

    const third = await run();
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toContain(
      `completed an interrupted run (${runName}): published ${back.length} of its ${published.length} files under ${root} (1 was published before it stopped)`,
    );
    expect(third.stderr).toMatch(/nothing new/);
    expect(await readBack(root)).toEqual([first + posted.length, first + posted.length]);
    expect(existsSync(join(root, '_staging'))).toBe(false);
    const after = JSON.parse(readFileSync(state, 'utf8')) as Record<string, unknown>;
    expect(after['pending']).toBeUndefined();
    expect(after['watermark']).toEqual(done['watermark']);
  });
});

describe('a run killed while staging', () => {
  it('has its staged files removed and its records fetched again, once', async () => {
    const { root, state, run } = setup();
    expect((await run()).code).toBe(0);
    const [first] = await readBack(root);
    const before = JSON.parse(readFileSync(state, 'utf8')) as Record<string, unknown>;
    const posted = await post([{ title: 'four', published_at: '2026-11-19T08:00:00Z' }]);
    // The intent was recorded and a half-written file staged; then kill -9.
    const staging = join(root, '_staging', 'part-20261120T120000Z-dead00');
    const half = join(staging, 'published_date=2026-11-19', stagedName('part-x.parquet'));
    mkdirSync(dirname(half), { recursive: true });
    writeFileSync(half, 'PAR1 half a file');
    const pending = {
      stage: 'writing',
      run: 'part-20261120T120000Z-dead00',
      root,
      staging,
      files: [],
    };
    writeFileSync(state, JSON.stringify({ ...before, pending }));
    expect(await readBack(root)).toEqual([first, first]);

    const next = await run();
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/removed the staged files of an interrupted run/);
    expect(await readBack(root)).toEqual([first + posted.length, first + posted.length]);
    expect(files(root).filter((f) => f.startsWith('_'))).toEqual([]);
  });
});

describe('a run that fails before its commit is recorded', () => {
  it('leaves nothing visible and nothing staged; the state is put back as it was', async () => {
    const { root, state, run } = setup();
    expect((await run()).code).toBe(0);
    let before = readFileSync(state, 'utf8');
    const [first] = await readBack(root);
    await post(
      Array.from({ length: 30 }, (_, i) => ({
        title: `five ${i}`,
        published_at: `2026-11-${18 + (i % 3)}T09:00:00Z`,
      })),
    );
    // Half the requests fail and nothing is retried: the run dies while fetching.
    const flaky = await startMockServer({ port: 0, quiet: true, now: NOW, failRate: 0.6, seed: 3 });
    try {
      for (let i = 0; i < 3; i++) {
        const failed = await runCli(
          [
            'search',
            '--base-url',
            flaky.url,
            '--api-key',
            'api_live_mock_pro',
            '--published-at-start',
            '2026-11-18T00:00:00Z',
            '--per-page',
            '5',
            '--retries',
            '0',
            '--state',
            state,
            '-f',
            'parquet',
            '-o',
            root,
            '--partition-by',
            'day',
          ],
          { now: NOW },
        );
        if (failed.code === 0) {
          // A run the flaky server let through (it counts in the state's runs).
          before = readFileSync(state, 'utf8');
          continue;
        }
        // Put back as it was: no `pending: writing` for the next run to settle.
        expect(readFileSync(state, 'utf8')).toBe(before);
        expect(await readBack(root)).toEqual([first, first]);
        expect(files(root).filter((f) => f.startsWith('_'))).toEqual([]);
        return;
      }
      throw new Error('the flaky server never failed a run');
    } finally {
      await flaky.close();
    }
  });
});
