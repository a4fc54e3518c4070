/**
 * The DuckDB destination on real files, read back with @duckdb/node-api:
 * column types, child rows, merge/append/replace, the state committed with
 * the rows, the file's lock (in this process and from another), drift.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/exit-codes.js';
import type {
  DatabaseSession,
  TableOptions,
} from '../../src/output/destinations/database/types.js';
import { parseDatabaseUrl } from '../../src/output/destinations/database/url.js';
import { openDuckdb } from '../../src/output/destinations/duckdb/session.js';
import { scratchDir } from '../helpers/scratch.js';
import { countDuckdb as count, queryDuckdb as query } from './duckdb-files.js';
import { ARTICLE_LISTS, fixtureArticles, listTotal } from './records.js';

const sessions: DatabaseSession[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  for (const c of children.splice(0)) c.kill();
});

const freshFile = () => join(scratchDir('duck-'), 'news.duckdb');

async function open(file: string, options: Partial<TableOptions> = {}, notes: string[] = []) {
  const url = parseDatabaseUrl(`duckdb:${file}`);
  if (url === undefined) throw new Error('not a database URL');
  const session = await openDuckdb(
    url,
    { kind: 'article', write: 'merge', ...options },
    { note: (m) => notes.push(m) },
  );
  sessions.push(session);
  return session;
}

describe('DuckDB tables', () => {
  it('types each top-level field and fills a child table per list', async () => {
    const file = freshFile();
    const records = fixtureArticles(50);
    const session = await open(file);
    await session.writeBatch(records);
    await session.close();
    const types = new Map(
      (
        await query(
          file,
          `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'articles'`,
        )
      ).map((r) => [r['column_name'], r['data_type']]),
    );
    expect(types.get('id')).toBe('BIGINT');
    expect(types.get('published_at')).toBe('TIMESTAMP WITH TIME ZONE');
    expect(types.get('title')).toBe('VARCHAR');
    expect(types.get('is_free')).toBe('BOOLEAN');
    expect(types.get('entities')).toBe('JSON');
    expect(await count(file, 'articles')).toBe(50);
    for (const list of ARTICLE_LISTS) {
      expect(await count(file, `articles__${list}`), list).toBe(listTotal(records, list));
    }
    const first = records[0] as { id: number; categories: { name: string; score: number }[] };
    const rows = await query(
      file,
      `SELECT name, score FROM articles__categories WHERE article_id = ${first.id} ORDER BY position`,
    );
    expect(rows).toEqual(first.categories.map((c) => ({ name: c.name, score: c.score })));
  });

  it('merges by id, appends, and replaces at finish', async () => {
    const file = freshFile();
    const records = fixtureArticles(20);
    let session = await open(file);
    await session.writeBatch(records);
    const changed = { ...records[0], title: 'A later version', entities: [] };
    await session.writeBatch([...records.slice(1), changed]);
    await session.close();
    expect(await count(file, 'articles')).toBe(20);
    expect(await count(file, 'articles__entities')).toBe(
      listTotal(records, 'entities') - listTotal(records.slice(0, 1), 'entities'),
    );
    expect(
      await query(file, `SELECT title FROM articles WHERE id = ${records[0]?.['id']}`),
    ).toEqual([{ title: 'A later version' }]);

    session = await open(file, { write: 'append', table: 'log' });
    await session.writeBatch(records.slice(0, 5));
    await session.writeBatch(records.slice(0, 5));
    await session.close();
    expect(await count(file, 'log')).toBe(10);

    session = await open(file, { write: 'replace' });
    await session.writeBatch(records.slice(0, 4));
    await session.close();
    // Not finished: the table is as it was.
    expect(await count(file, 'articles')).toBe(20);
    session = await open(file, { write: 'replace' });
    await session.writeBatch(records.slice(0, 3));
    await session.finish();
    await session.close();
    expect(await count(file, 'articles')).toBe(3);
    expect(await count(file, 'articles__topics')).toBe(listTotal(records.slice(0, 3), 'topics'));
  });
});

describe('DuckDB state and locks', () => {
  it('commits the state with the rows, and a failing batch leaves neither', async () => {
    const file = freshFile();
    const session = await open(file);
    await session.lockState('daily');
    expect(await session.readState('daily')).toBeUndefined();
    const records = fixtureArticles(10);
    await session.writeBatch(records.slice(0, 5), { name: 'daily', value: '{"cursor":1}' });
    const bad = { ...records[5], published_at: 'not a date' };
    await expect(
      session.writeBatch([...records.slice(6), bad], { name: 'daily', value: '{"cursor":2}' }),
    ).rejects.toThrow(/not a date/);
    expect(JSON.parse((await session.readState('daily')) ?? 'null')).toEqual({ cursor: 1 });
    await session.close();
    expect(await count(file, 'articles')).toBe(5);
  });

  it('refuses a second session on the file, in this process and from another', async () => {
    const file = freshFile();
    const first = await open(file);
    await first.lockState('daily');
    const here = await open(file).catch((e: unknown) => e);
    expect(describeFailure(here, false).exitCode).toBe(1);
    expect(String((here as Error).message)).toMatch(
      new RegExp(`another run holds .* \\(pid ${process.pid}`),
    );
    await first.close();

    // Another process holds the file: DuckDB's own lock, reported in words.
    const script = `import { DuckDBInstance } from '@duckdb/node-api';
      const db = await DuckDBInstance.create(process.argv[1]); await db.connect();
      process.stdout.write('ready\\n'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    await once(child.stdout as NodeJS.ReadableStream, 'data');
    const there = await open(file).catch((e: unknown) => e);
    expect(describeFailure(there, false).exitCode).toBe(1);
    expect(String((there as Error).message)).toContain(`pid ${child.pid}`);
  });

  it('refuses a path in a missing directory, or a directory, as a file -o is (exit 2)', async () => {
    const base = scratchDir('duck-');
    const missing = join(base, 'no-such-dir', 'news.duckdb');
    const refused = await open(missing).catch((e: unknown) => e);
    const failure = describeFailure(refused, false);
    expect(failure.exitCode).toBe(2);
    expect(String((refused as Error).message)).toContain(
      `the directory ${join(base, 'no-such-dir')} does not exist`,
    );
    expect(existsSync(join(base, 'no-such-dir'))).toBe(false);
    const directory = await open(base).catch((e: unknown) => e);
    expect(describeFailure(directory, false).exitCode).toBe(2);
    expect(String((directory as Error).message)).toContain('it is a directory');
  });
});

describe('DuckDB schema drift', () => {
  it('adds a column for a new field with a note; refuses an incompatible one, table unchanged', async () => {
    const file = freshFile();
    const records = fixtureArticles(3);
    const notes: string[] = [];
    const session = await open(file, {}, notes);
    await session.writeBatch(records);
    await session.writeBatch([{ ...records[0], reach_score: 0.25 }]);
    await session.close();
    expect(notes.some((n) => n.includes('reach_score') && n.includes('DOUBLE'))).toBe(true);
    expect(
      await query(file, `SELECT reach_score FROM articles WHERE reach_score IS NOT NULL`),
    ).toEqual([{ reach_score: 0.25 }]);

    const other = freshFile();
    const setup = await DuckDBInstance.create(other);
    const c = await setup.connect();
    await c.run('CREATE TABLE articles (id BIGINT PRIMARY KEY, title INTEGER)');
    c.closeSync();
    setup.closeSync();
    const refused = await open(other);
    const error = await refused.writeBatch(records).catch((e: unknown) => e);
    await refused.close();
    expect(String((error as Error).message)).toMatch(
      /table articles has column title of type INTEGER, but its values are VARCHAR/,
    );
    expect(await count(other, 'articles')).toBe(0);
    expect(
      await query(other, `SELECT table_name FROM information_schema.tables ORDER BY table_name`),
    ).toEqual([{ table_name: 'articles' }]);
  });
});
