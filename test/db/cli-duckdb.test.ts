/**
 * The commands into a DuckDB file, read back with @duckdb/node-api: the ids
 * a search writes are the ids `-f jsonl` writes for the same filters; a
 * rerun changes no count; `--state` commits as it goes and a second run
 * adds only what is new; kill -9 at an observed fill level, then the same
 * command, leaves each article once; a run while another holds the file is
 * refused in words.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { BIN, spawnCollecting } from '../helpers/spawn.js';
import { queryDuckdb } from './duckdb-files.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let mock: MockServer;
let slow: MockServer;
let dir: string;
let files = 0;
/** Requests the slow mock has answered. */
let served = 0;

beforeAll(async () => {
  [mock, slow] = await Promise.all([
    startMockServer({ port: 0, quiet: true, now: NOW }),
    // Each page takes a while: a run is long enough to be killed in the middle.
    startMockServer({
      port: 0,
      // Its request log counts what it answers.
      quiet: false,
      now: NOW,
      latencyMs: 60,
      log: (line) => {
        if (line.includes(' 200')) served++;
      },
    }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'news-duckdb-cli-'));
});
afterAll(async () => {
  await Promise.all([mock?.close(), slow?.close()]);
});

const freshFile = (): string => join(dir, `t${++files}.duckdb`);
const FILTER = ['--published-at-start', '2026-11-17T00:00:00Z', '--per-page', '20'];
const search = (server: MockServer, ...args: string[]) =>
  runCli(
    ['search', '--base-url', server.url, '--api-key', 'api_live_mock_pro', ...FILTER, ...args],
    {
      now: NOW,
    },
  );

const tableIds = async (file: string): Promise<number[]> =>
  (await queryDuckdb(file, 'SELECT id FROM articles ORDER BY id')).map((r) => Number(r['id']));

function fileIds(file: string): number[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id)
    .sort((a, b) => a - b);
}

let expected: number[] | undefined;
async function jsonlIds(): Promise<number[]> {
  if (expected !== undefined) return expected;
  const file = join(dir, 'expected.jsonl');
  const r = await search(mock, '--all', '-f', 'jsonl', '-o', file);
  expect(r.code, r.stderr).toBe(0);
  expected = fileIds(file);
  return expected;
}

describe('search into DuckDB', () => {
  it('writes the ids -f jsonl writes; a rerun changes no count', async () => {
    const ids = await jsonlIds();
    const file = freshFile();
    const first = await search(mock, '--all', '-o', `duckdb:${file}`);
    expect(first.code, first.stderr).toBe(0);
    expect(await tableIds(file)).toEqual(ids);
    const [entities] = await queryDuckdb(file, 'SELECT count(*) AS n FROM articles__entities');
    const again = await search(mock, '--all', '-o', `duckdb:${file}`);
    expect(again.code, again.stderr).toBe(0);
    expect(await tableIds(file)).toEqual(ids);
    expect((await queryDuckdb(file, 'SELECT count(*) AS n FROM articles__entities'))[0]).toEqual(
      entities,
    );
  });

  it('--state: a second run adds nothing; the state is a row of news_state', async () => {
    const ids = await jsonlIds();
    const file = freshFile();
    expect((await search(mock, '--state', 'daily', '-o', `duckdb:${file}`)).code).toBe(0);
    expect(await tableIds(file)).toEqual(ids);
    const rows = await queryDuckdb(file, "SELECT name FROM news_state WHERE name = 'daily'");
    expect(rows).toHaveLength(1);
    const second = await search(mock, '--state', 'daily', '-o', `duckdb:${file}`);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('nothing new');
    expect(await tableIds(file)).toEqual(ids);
  });

  it('kill -9 once rows are in, then the same command: each article once', async () => {
    const ids = await jsonlIds();
    const file = freshFile();
    const argv = ['search', '--base-url', slow.url, '--api-key', 'api_live_mock_pro', ...FILTER];
    const full = [...argv, '--concurrency', '1', '--state', 'nightly', '-o', `duckdb:${file}`];
    const run = spawnCollecting(process.execPath, [BIN, ...full], { ...process.env });
    // DuckDB's file is its writer's alone while the run goes: the fill level
    // observed is the pages the mock has answered (the run commits each one it takes).
    const from = served;
    const end = Date.now() + 60_000;
    while (served - from < 5 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    run.child.kill('SIGKILL');
    await run.exit;
    const kept = await tableIds(file).catch(() => []);
    expect(kept.length).toBeLessThan(ids.length);
    const again = await runCli(full, { now: NOW });
    expect(again.code, again.stderr).toBe(0);
    expect(await tableIds(file)).toEqual(ids);
  }, 120_000);
});
