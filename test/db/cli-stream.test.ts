/**
 * `news stream --state NAME -o postgres://…`: each batch is committed with
 * the stream's position, so a stream killed with kill -9 and started again
 * loses nothing and writes nothing twice. The table is written with
 * `--write append`, where a repeated article would show as a second row.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres.js';
import { BIN, spawnCollecting } from '../helpers/spawn.js';
import { call, startTestServer } from '../mock/server-helpers.js';

const KEY = 'api_live_mock_pro';
let mock: MockServer;
let server: TestPostgres;

beforeAll(async () => {
  // Replays reach back 60 mock minutes: 36 s here, ample for a kill and a restart.
  [mock, server] = await Promise.all([startTestServer({ timeScale: 0.01 }), startPostgres()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([mock?.close(), server?.stop()]);
});

async function post(titles: string[]): Promise<number[]> {
  const r = await call(mock, 'POST', '/__mock/articles', {
    body: titles.map((title) => ({ title })),
  });
  expect(r.status).toBe(201);
  return (r.json as { ids: number[] }).ids;
}

async function ids(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (await client.query('SELECT id FROM articles ORDER BY id')).rows as {
      id: string;
    }[];
    return rows.map((r) => Number(r.id));
  } catch {
    return []; // no table yet
  } finally {
    await client.end();
  }
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('news stream into PostgreSQL', () => {
  it('killed with kill -9 and started again: nothing lost, nothing written twice', async () => {
    const url = await server.createDatabase('stream');
    const argv = [
      'stream',
      '--base-url',
      mock.url,
      '--api-key',
      KEY,
      '--retries',
      '0',
      '--title',
      'tabled',
      '--state',
      'live',
      '-o',
      url,
      '--write',
      'append',
    ];
    const before = mock.streams.openedFor(KEY);
    const first = spawnCollecting(process.execPath, [BIN, ...argv], { ...process.env });
    let early: number[] = [];
    try {
      await waitFor(async () => mock.streams.openedFor(KEY) > before, 'the stream to open');
      early = await post(['tabled one', 'other', 'tabled two', 'tabled three']);
      await waitFor(async () => (await ids(url)).length >= 3, 'three rows');
    } finally {
      first.child.kill('SIGKILL');
      await first.exit;
    }
    expect(await ids(url)).toEqual([early[0], early[2], early[3]]);
    // Indexed while no stream runs: the next run gets exactly these, after the committed position.
    const late = await post(['tabled four', 'tabled five']);
    const second = await runCli([...argv, '--max-events', '2']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain(server.password);
    const all = await ids(url);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(5);
    expect(all.slice(3)).toEqual(late);
  }, 60_000);
});
