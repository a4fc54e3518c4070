/**
 * `news convert FILE.jsonl -o postgres://…` by its fast path (a worker
 * thread reads, parses and encodes the file; the main thread runs each
 * batch's transaction) against the plain path (NEWS_NO_FAST_PATHS=1), both
 * through the built binary into a real PostgreSQL: the same tables, row for
 * row and column for column, into a fresh database (odd characters too:
 * COPY's specials, JSON escapes, NUL, which PostgreSQL cannot hold) and into
 * tables that hold rows already, with `--write replace`; `--write append` takes the plain
 * path; what the fast path gives up on (a field the tables lack, top-level
 * or in a list's item, a line that is no JSON, a record without an id) ends
 * as the plain path ends, exit code, error line and tables; killed after a
 * commit, the same command again leaves each record once; at most 1,000
 * records a transaction.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../src/output/types.js';
import { queryPostgres as query, type TestPostgres, startPostgres } from '../helpers/postgres.js';
import { scratchDir } from '../helpers/scratch.js';
import { BIN, runToEnd, spawnCollecting } from '../helpers/spawn.js';
import { ARTICLE_LISTS, fixtureArticles } from './records.js';

const FAST = 'read by a worker thread';
const DECLINED = 'did not read';
const dir = scratchDir('pg-file-');
let server: TestPostgres;
let made = 0;

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** A fresh database: its URL and its name (to take out of what the runs print). */
async function freshDb(): Promise<{ url: string; name: string }> {
  const name = `fileload_${++made}_db`;
  return { url: await server.createDatabase(name), name };
}

function jsonl(lines: readonly (ApiRecord | string)[]): string {
  const file = join(dir, `in${++made}.jsonl`);
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
  writeFileSync(file, `${text}\n`);
  return file;
}

const base = fixtureArticles(400);
/** `n` full articles, ids 1…n (the fixtures in turn, each title its own). */
function articles(n: number, from = 0): ApiRecord[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const a = base[i % base.length] as ApiRecord;
    return { ...a, id: i + 1, title: `${String(a['title'])} #${i}` };
  });
}
/** Later versions: a title, a number and the lists changed (entities one shorter, topics doubled). */
const revised = (records: readonly ApiRecord[], tag: string): ApiRecord[] =>
  records.map((r) => ({
    ...r,
    title: `${String(r['title'])} (${tag})`,
    words_count: 7,
    entities: ((r['entities'] as unknown[] | undefined) ?? []).slice(1),
    topics: [...((r['topics'] as unknown[]) ?? []), ...((r['topics'] as unknown[]) ?? [])],
  }));

/** `news convert FILE -o URL -v …` by the built binary; `plain` forces the plain path. */
function convert(file: string, url: string, plain: boolean, ...args: string[]) {
  const { NEWS_NO_FAST_PATHS: _off, NEWS_API_KEY: _key, ...env } = process.env;
  if (plain) env['NEWS_NO_FAST_PATHS'] = '1';
  return runToEnd(process.execPath, [BIN, 'convert', file, '-o', url, '-v', ...args], env);
}

/** Every table of the database: its columns and types, and its rows in order as JSON values. */
async function contents(url: string): Promise<Record<string, unknown>> {
  const columns = await query<{ table_name: string; column_name: string; data_type: string }>(
    url,
    `SELECT table_name, column_name, data_type FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const tables = new Map<string, string[]>();
  for (const c of columns) {
    tables.set(c.table_name, [
      ...(tables.get(c.table_name) ?? []),
      `${c.column_name} ${c.data_type}`,
    ]);
  }
  const out: Record<string, unknown> = {};
  for (const [table, cols] of tables) {
    const order = cols.some((c) => c.startsWith('article_id ')) ? 'article_id, position' : 'id';
    const rows = await query<{ row: unknown }>(
      url,
      `SELECT to_jsonb(t) AS row FROM "${table}" t ORDER BY ${order}`,
    );
    out[table] = { columns: cols, rows: rows.map((r) => r.row) };
  }
  return out;
}

const rowsOf = (c: Record<string, unknown>, table: string) =>
  (c[table] as { rows: Record<string, unknown>[] } | undefined)?.rows ?? [];

const lines = (text: string, start: string, name: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(start))
    .map((l) => l.replaceAll(name, 'DB'));

/** Both paths from the same steps, each into a database of its own; the fast one must run each step. */
async function bothWays(steps: { file: string; args?: string[]; fast?: boolean }[]) {
  const [fast, plain] = [await freshDb(), await freshDb()];
  for (const { file, args = [], fast: expectFast = true } of steps) {
    const f = await convert(file, fast.url, !expectFast, ...args);
    expect(f.code, f.stderr).toBe(0);
    if (expectFast) expect(f.stderr).toContain(FAST);
    const p = await convert(file, plain.url, true, ...args);
    expect(p.code, p.stderr).toBe(0);
    expect(p.stderr).not.toContain(FAST);
    expect(lines(f.stderr, 'note:', fast.name)).toEqual(lines(p.stderr, 'note:', plain.name));
  }
  return { fast: await contents(fast.url), plain: await contents(plain.url) };
}

const TABLES = ['articles', ...ARTICLE_LISTS.map((c) => `articles__${c}`)];

describe('convert into PostgreSQL by a worker thread', () => {
  it('writes what the plain path writes: a fresh database, an id twice (its last version wins)', async () => {
    const records = articles(2500);
    const twice = revised([records[42] as ApiRecord], 'again')[0] as ApiRecord;
    const { fast, plain } = await bothWays([{ file: jsonl([...records, twice]) }]);
    expect(Object.keys(fast).sort()).toEqual([...TABLES].sort());
    for (const table of TABLES) expect(fast[table], table).toEqual(plain[table]);
    expect(rowsOf(fast, 'articles')).toHaveLength(2500);
    expect(rowsOf(fast, 'articles').find((r) => r['id'] === 43)?.['title']).toBe(twice['title']);
    const children = rowsOf(fast, 'articles__entities').filter((r) => r['article_id'] === 43);
    expect(children).toHaveLength((twice['entities'] as unknown[]).length);
    for (const table of TABLES) expect(rowsOf(fast, table).length, table).toBeGreaterThan(0);
  }, 120_000);

  it('keeps odd characters, in text and in JSON, both ways; NUL is dropped (PostgreSQL holds none)', async () => {
    // The COPY text format's specials, JSON's escapes, the six characters `\u0000` as text, and NUL itself.
    const odd = 'tab \t nl \n cr \r bs \\ q " nul \u0000 text \\u0000 \\\\u0000 🦆 é \u2028 end';
    const kept = odd.replaceAll('\u0000', '');
    const [a] = articles(1);
    const entities = [{ id: 1, name: odd, type: 'organization', metadata: { note: odd } }, 7];
    const record = { ...a, title: odd, source: { name: odd, [odd]: 1 }, entities } as ApiRecord;
    const { fast, plain } = await bothWays([{ file: jsonl([record]) }]);
    expect(fast).toEqual(plain);
    const [row] = rowsOf(fast, 'articles');
    expect(row?.['title']).toBe(kept);
    expect(row?.['source']).toEqual({ name: kept, [kept]: 1 });
    expect(row?.['entities']).toEqual([
      { ...(entities[0] as object), name: kept, metadata: { note: kept } },
      7,
    ]);
    const items = rowsOf(fast, 'articles__entities');
    expect(items.map((r) => [r['name'], r['metadata']])).toEqual([[kept, { note: kept }]]);
  }, 120_000);

  it('merges into tables that hold rows: equal tables, the child rows of a replaced record the new ones only', async () => {
    const full = articles(2200);
    // Some of the same ids with other values and list lengths, and ids the file lacks.
    const before = jsonl([...revised(full.slice(900, 1300), 'old'), ...articles(50, 5000)]);
    const file = jsonl(full);
    const { fast, plain } = await bothWays([{ file: before, fast: false }, { file }]);
    expect(fast).toEqual(plain);
    expect(rowsOf(fast, 'articles')).toHaveLength(2250);
    const replaced = full[1000] as ApiRecord;
    for (const child of ['entities', 'topics']) {
      const got = rowsOf(fast, `articles__${child}`).filter((r) => r['article_id'] === 1001);
      expect(got, child).toHaveLength((replaced[child] as unknown[]).length);
    }
    expect(rowsOf(fast, 'articles').some((r) => String(r['title']).endsWith('(old)'))).toBe(false);
  }, 120_000);

  it('--write replace by the fast path; --write append by the plain one', async () => {
    const file = jsonl(articles(1500));
    const replaced = await bothWays([
      { file: jsonl(articles(300, 3000)), fast: false },
      { file, args: ['--write', 'replace'] },
    ]);
    expect(replaced.fast).toEqual(replaced.plain);
    expect(rowsOf(replaced.fast, 'articles')).toHaveLength(1500);
    const [fast, plain] = [await freshDb(), await freshDb()];
    for (let i = 0; i < 2; i++) {
      const args = ['--table', 'log', '--write', 'append'];
      const f = await convert(file, fast.url, false, ...args);
      expect(f.code, f.stderr).toBe(0);
      expect(f.stderr).toContain(DECLINED);
      expect(f.stderr).not.toContain(FAST);
      expect((await convert(file, plain.url, true, ...args)).code).toBe(0);
    }
    const appended = await contents(fast.url);
    expect(appended).toEqual(await contents(plain.url));
    expect(rowsOf(appended, 'log')).toHaveLength(3000);
  }, 120_000);

  it('gives up on a field the tables lack: the plain path adds its column, the same tables', async () => {
    const at = (record: ApiRecord) => {
      const records = articles(1800);
      records[1200] = record;
      return records;
    };
    const a = articles(1201)[1200] as ApiRecord;
    const entity = (a['entities'] as ApiRecord[])[0];
    const cases: Record<string, [ApiRecord[], string, string]> = {
      'a top-level field': [at({ ...a, brand_new_field: 'fresh' }), 'articles', 'brand_new_field'],
      "a child item's field": [
        at({ ...a, entities: [{ ...entity, brand_new_field: 'fresh' }] }),
        'articles__entities',
        'brand_new_field',
      ],
    };
    for (const [what, [records, table, column]] of Object.entries(cases)) {
      const file = jsonl(records);
      const [fast, plain] = [await freshDb(), await freshDb()];
      const f = await convert(file, fast.url, false);
      expect(f.code, f.stderr).toBe(0);
      expect(f.stderr, what).toContain(DECLINED);
      expect(lines(f.stderr, 'note:', fast.name).join('\n'), what).toContain(
        `added column ${column} (text) to ${table}`,
      );
      expect((await convert(file, plain.url, true)).code).toBe(0);
      const got = await contents(fast.url);
      expect(got, what).toEqual(await contents(plain.url));
      expect(
        rowsOf(got, table).filter((r) => r[column] === 'fresh'),
        what,
      ).toHaveLength(1);
    }
  }, 120_000);

  it('gives up on a line that is no JSON and on a record without an id: as the plain path ends', async () => {
    const good = articles(2000);
    const cases: Record<string, (ApiRecord | string)[]> = {
      'a line that is no JSON': [
        ...good.slice(0, 1500),
        '{"id": 1, "title": ',
        ...good.slice(1500),
      ],
      'a record without an id': [
        ...good.slice(0, 1200),
        { ...(good[1200] as ApiRecord), id: null },
        ...good.slice(1201),
      ],
    };
    for (const [what, records] of Object.entries(cases)) {
      const file = jsonl(records);
      const [fast, plain] = [await freshDb(), await freshDb()];
      const f = await convert(file, fast.url, false);
      const p = await convert(file, plain.url, true);
      expect(f.stderr, what).toContain(DECLINED);
      expect(p.code, what).not.toBe(0);
      expect(f.code, what).toBe(p.code);
      expect(lines(f.stderr, 'error:', fast.name), what).toEqual(
        lines(p.stderr, 'error:', plain.name),
      );
      expect(lines(f.stderr, 'error:', fast.name), what).toHaveLength(1);
      expect(await contents(fast.url), what).toEqual(await contents(plain.url));
    }
  }, 120_000);

  it('kill -9 once a batch is committed, then the same command: each record once', async () => {
    const total = 8000;
    const file = jsonl(articles(total));
    const db = await freshDb();
    const argv = [BIN, 'convert', file, '-o', db.url, '-v'];
    const { NEWS_NO_FAST_PATHS: _off, ...env } = process.env;
    const run = spawnCollecting(process.execPath, argv, env);
    const end = Date.now() + 60_000;
    while (!run.stderr().includes('committed the first') && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 2));
    }
    run.child.kill('SIGKILL');
    expect(await run.exit, run.stderr()).toBeNull();
    // Only the fast path says what it committed (it names itself at the end, which this run never reached).
    expect(run.stderr()).not.toContain('wrote');
    expect(run.stderr()).not.toContain(DECLINED);
    const count = async (url: string, table: string) =>
      Number((await query<{ n: string }>(url, `SELECT count(*) AS n FROM "${table}"`))[0]?.n);
    const kept = await count(db.url, 'articles');
    expect(kept).toBeGreaterThanOrEqual(1000);
    expect(kept).toBeLessThan(total);

    const again = await convert(file, db.url, false);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(FAST);
    const [ids] = await query<{ n: string; ids: string }>(
      db.url,
      'SELECT count(*) AS n, count(DISTINCT id) AS ids FROM articles',
    );
    expect(ids).toEqual({ n: String(total), ids: String(total) });
    const plain = await freshDb();
    expect((await convert(file, plain.url, true)).code).toBe(0);
    for (const table of TABLES) {
      expect(await count(db.url, table), table).toBe(await count(plain.url, table));
    }
  }, 180_000);

  it('commits at most 1,000 records a transaction', async () => {
    const file = jsonl(articles(2600));
    const db = await freshDb();
    const r = await convert(file, db.url, false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(FAST);
    const committed = [...r.stderr.matchAll(/committed the first ([\d,]+) lines?/g)].map((m) =>
      Number((m[1] as string).replaceAll(',', '')),
    );
    expect(committed.length).toBeGreaterThanOrEqual(3);
    expect(committed.at(-1)).toBe(2600);
    committed.forEach((n, i) => {
      const step = n - (committed[i - 1] ?? 0);
      expect(step, `${committed}`).toBeGreaterThan(0);
      expect(step, `${committed}`).toBeLessThanOrEqual(1000);
    });
  }, 120_000);
});
