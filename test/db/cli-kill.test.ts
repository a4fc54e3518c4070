/**
 * `--state` into a real PostgreSQL under kill -9: the run is killed once the
 * table holds a chosen number of rows (observed, not timed), and the same
 * command run again leaves each article exactly once, with its child rows,
 * and the ids `-f jsonl` writes for the same filters. Two runs on one state:
 * the second is refused, naming the first. A wrong password (exit 3),
 * nothing listening (exit 5) and an incompatible table (refused, unchanged)
 * say so in one line, without the password.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import {
  freePort,
  queryPostgres as query,
  type TestPostgres,
  startPostgres,
} from '../helpers/postgres.js';
import { BIN, spawnCollecting } from '../helpers/spawn.js';
import { fixtureArticles } from './records.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let server: TestPostgres;
let mock: MockServer;
let dir: string;
let dbs = 0;

beforeAll(async () => {
  [server, mock] = await Promise.all([
    startPostgres(),
    // Each page takes a while: a run is long enough to be killed in the middle.
    startMockServer({ port: 0, quiet: true, now: NOW, latencyMs: 60 }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'news-db-kill-'));
}, 120_000);
afterAll(async () => {
  await Promise.all([server?.stop(), mock?.close()]);
});

const freshDb = async (): Promise<string> => server.createDatabase(`kill${++dbs}`);
const ARGS = () => [
  'search',
  '--base-url',
  mock.url,
  '--api-key',
  'api_live_mock_pro',
  '--published-at-start',
  '2026-11-16T00:00:00Z',
  '--per-page',
  '10',
  '--concurrency',
  '1',
];

async function rows(url: string, table = 'articles'): Promise<number> {
  try {
    return Number((await query<{ n: string }>(url, `SELECT count(*) AS n FROM ${table}`))[0]!.n);
  } catch {
    return 0; // not created yet
  }
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let expected: { ids: number[]; entities: number } | undefined;
/** What `-f jsonl` writes for the same filters: the ids, and the entities they hold. */
async function jsonlExport(): Promise<{ ids: number[]; entities: number }> {
  if (expected !== undefined) return expected;
  const file = join(dir, 'expected.jsonl');
  const r = await runCli([...ARGS(), '--all', '-f', 'jsonl', '-o', file], { now: NOW });
  expect(r.code, r.stderr).toBe(0);
  const records = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { id: number; entities?: unknown[] });
  expected = {
    ids: records.map((r) => r.id).sort((a, b) => a - b),
    entities: records.reduce((n, r) => n + (r.entities?.length ?? 0), 0),
  };
  return expected;
}

describe('kill -9 at an observed fill level, then the same command', () => {
  for (const level of [10, 70, 150]) {
    it(`killed with ${level} rows in: each article once, child rows included`, async () => {
      const { ids, entities } = await jsonlExport();
      expect(ids.length).toBeGreaterThan(level + 20);
      const url = await freshDb();
      const argv = [...ARGS(), '--state', 'nightly', '-o', url];
      const run = spawnCollecting(process.execPath, [BIN, ...argv], { ...process.env });
      await waitFor(async () => (await rows(url)) >= level, `${level} rows`);
      run.child.kill('SIGKILL');
      await run.exit;
      const kept = await rows(url);
      expect(kept).toBeGreaterThanOrEqual(level);
      expect(kept).toBeLessThan(ids.length);

      const again = await runCli(argv, { now: NOW });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('continuing the interrupted run of "nightly"');
      const got = await query<{ id: string }>(url, 'SELECT id FROM articles ORDER BY id');
      expect(got.map((r) => Number(r.id))).toEqual(ids);
      expect(await rows(url, 'articles__entities')).toBe(entities);
      const [dupes] = await query<{ n: string }>(
        url,
        'SELECT count(*) AS n FROM (SELECT article_id, position FROM articles__entities GROUP BY 1, 2 HAVING count(*) > 1) d',
      );
      expect(Number(dupes!.n)).toBe(0);
    }, 120_000);
  }
});

describe('one run at a time on a state', () => {
  it('a second run is refused (exit 1), naming the first', async () => {
    const url = await freshDb();
    const argv = [...ARGS(), '--state', 'shared', '-o', url];
    const first = spawnCollecting(process.execPath, [BIN, ...argv], { ...process.env });
    try {
      await waitFor(async () => (await rows(url)) > 0, 'the first run to write');
      const second = await runCli(argv, { now: NOW });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`pid ${first.child.pid}`);
      expect(second.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
    } finally {
      first.child.kill('SIGKILL');
      await first.exit;
    }
  }, 120_000);
});

describe('errors', () => {
  it('a wrong password: exit 3, the password in no output', async () => {
    const url = (await freshDb()).replace(server.password, 'not-the-password');
    const r = await runCli([...ARGS(), '-o', url], { now: NOW });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stdout + r.stderr).not.toContain('not-the-password');
    // Said as the database's refusal, not as an HTTP answer.
    expect(r.stderr).not.toContain('HTTP');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('nothing listening: exit 5, no stack trace', async () => {
    const port = await freePort();
    const r = await runCli(
      [...ARGS(), '-o', `postgres://news:${server.password}@127.0.0.1:${port}/db`],
      { now: NOW },
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^error: .*127\.0\.0\.1/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).not.toContain(server.password);
  });

  it('convert into a database nothing listens for: exit 5, and the process ends (the reader is closed)', async () => {
    const port = await freePort();
    const file = join(mkdtempSync(join(tmpdir(), 'news-convert-refused-')), 'saved.jsonl');
    writeFileSync(
      file,
      `${fixtureArticles(250)
        .map((a) => JSON.stringify(a))
        .join('\n')}\n`,
    );
    // Its own process: what is left open shows as a process that does not end.
    const run = spawnCollecting(
      process.execPath,
      [BIN, 'convert', file, '-o', `postgres://news@127.0.0.1:${port}/db`],
      { ...process.env },
    );
    const ended = await Promise.race([
      run.exit,
      new Promise<'still running'>((r) => setTimeout(() => r('still running'), 15_000)),
    ]);
    if (ended === 'still running') run.child.kill('SIGKILL');
    expect(ended).toBe(5);
    expect(run.stderr()).toMatch(/^error: cannot reach/);
    expect(run.stderr()).not.toContain('Closing file descriptor');
  });

  it('an existing table with an incompatible column: refused, the table unchanged', async () => {
    const url = await freshDb();
    await query(
      url,
      'CREATE TABLE articles (id bigint PRIMARY KEY, title integer); INSERT INTO articles VALUES (1, 7)',
    );
    const r = await runCli([...ARGS(), '-o', url], { now: NOW });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/articles.*title/);
    expect(await query(url, 'SELECT id::int, title FROM articles')).toEqual([{ id: 1, title: 7 }]);
  });
});
