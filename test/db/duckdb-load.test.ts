/**
 * How the DuckDB session loads a batch, read back with @duckdb/node-api: a
 * batch of new ids is appended straight into the table and one that shares
 * ids with it merges through a staging table, with the same rows either way;
 * a value that does not fit its column fails the batch on both paths;
 * timestamps in every form DuckDB reads; ids as numbers or numeric strings;
 * odd characters; a table another run made, with its own column order.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseSession } from '../../src/output/destinations/database/types.js';
import { parseDatabaseUrl } from '../../src/output/destinations/database/url.js';
import { openDuckdb } from '../../src/output/destinations/duckdb/session.js';
import type { ApiRecord } from '../../src/output/types.js';
import { scratchDir } from '../helpers/scratch.js';
import { countDuckdb as count, queryDuckdb as query } from './duckdb-files.js';
import { fixtureArticles, listTotal } from './records.js';

const sessions: DatabaseSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

const freshFile = () => join(scratchDir('duck-load-'), 'news.duckdb');

async function open(file: string, notes: string[] = []) {
  const url = parseDatabaseUrl(`duckdb:${file}`);
  if (url === undefined) throw new Error('not a database URL');
  const session = await openDuckdb(
    url,
    { kind: 'article', write: 'merge' },
    { note: (m) => notes.push(m) },
  );
  sessions.push(session);
  return session;
}

/** Each article's lists as the tables hold them: entity names by position, per article. */
async function entityNames(file: string): Promise<Map<number, string[]>> {
  const rows = await query(
    file,
    'SELECT article_id, name FROM articles__entities ORDER BY article_id, position',
  );
  const out = new Map<number, string[]>();
  for (const row of rows) {
    const id = Number(row['article_id']);
    out.set(id, [...(out.get(id) ?? []), String(row['name'])]);
  }
  return out;
}

describe('DuckDB batches: new ids appended, shared ids merged', () => {
  it('writes the same rows on both paths; the last version of an id in a batch wins', async () => {
    const records = fixtureArticles(12);
    const file = freshFile();
    const session = await open(file);
    // All new: appended straight in.
    await session.writeBatch(records.slice(0, 8));
    const [a, b] = records as [ApiRecord, ApiRecord];
    // Shares ids: merged. `a` twice in the batch (the second wins), `b` loses its entities.
    await session.writeBatch([
      { ...a, title: 'first of two' },
      { ...b, title: 'b again', entities: [] },
      ...records.slice(8, 10),
      { ...a, title: 'second of two', entities: (a['entities'] as unknown[]).slice(0, 1) },
    ]);
    // All new again, into a table that has rows.
    await session.writeBatch(records.slice(10));
    await session.close();

    expect(await count(file, 'articles')).toBe(12);
    const titles = await query(
      file,
      `SELECT id, title FROM articles WHERE id IN (${a['id']}, ${b['id']}) ORDER BY id`,
    );
    expect(new Map(titles.map((r) => [Number(r['id']), r['title']]))).toEqual(
      new Map([
        [a['id'], 'second of two'],
        [b['id'], 'b again'],
      ]),
    );
    const names = await entityNames(file);
    expect(names.get(a['id'] as number)).toEqual([(a['entities'] as { name: string }[])[0]?.name]);
    expect(names.has(b['id'] as number)).toBe(false);
    const untouched = records.slice(2);
    expect(await count(file, 'articles__entities')).toBe(listTotal(untouched, 'entities') + 1);
    for (const record of untouched) {
      const want = (record['entities'] as { name: string }[]).map((e) => e.name);
      expect(names.get(record['id'] as number) ?? []).toEqual(want);
    }
    // The parent's list column is the list as JSON.stringify writes it.
    const lists = await query(
      file,
      `SELECT id, entities::VARCHAR AS e, topics::VARCHAR AS t FROM articles WHERE id = ${records[5]?.['id']}`,
    );
    expect(lists[0]?.['e']).toBe(JSON.stringify(records[5]?.['entities']));
    expect(lists[0]?.['t']).toBe(JSON.stringify(records[5]?.['topics']));
  });

  it('refuses a value that does not fit its column, on either path, leaving the table as it was', async () => {
    const records = fixtureArticles(6);
    const file = freshFile();
    const session = await open(file);
    const bad = { ...records[0], words_count: 'many' };
    // Fresh table: the append path.
    await expect(session.writeBatch([records[1] as ApiRecord, bad])).rejects.toThrow(
      /words_count.*many/,
    );
    await session.writeBatch(records.slice(1, 4));
    // Shares ids: the merge path.
    await expect(
      session.writeBatch([{ ...records[1], words_count: 'many' }, records[4] as ApiRecord]),
    ).rejects.toThrow(/words_count.*many/);
    // An entity's id that is not a number (a child table's column).
    const entities = [{ id: 'x1', name: 'odd' }];
    await expect(session.writeBatch([{ ...records[5], entities }])).rejects.toThrow(
      /articles__entities, column id: .*x1/,
    );
    // An article's id that is not one.
    await expect(session.writeBatch([{ ...records[5], id: 'x2' }])).rejects.toThrow(
      /articles, column id: .*x2/,
    );
    await session.close();
    expect(await count(file, 'articles')).toBe(3);
    expect(await count(file, 'articles__entities')).toBe(
      listTotal(records.slice(1, 4), 'entities'),
    );
  });
});

describe('DuckDB values', () => {
  it('reads timestamps in each form DuckDB does, as DuckDB would', async () => {
    const stamps = [
      '2026-11-17T10:00:00Z',
      '2026-11-17T10:00:00.123456Z',
      '2026-11-17T10:00:00.5+02:00',
      '2026-11-17T10:00:00-0930',
      '2024-02-29T23:59:59.000Z',
      '2026-11-17 10:00:00+00',
      '2026-11-17',
      '2026-11-17T10:00:00',
      '0900-01-01T00:00:00Z',
    ];
    const records = fixtureArticles(stamps.length).map(
      (r, i): ApiRecord => ({
        ...r,
        published_at: stamps[i],
      }),
    );
    const file = freshFile();
    const session = await open(file);
    await session.writeBatch(records);
    await session.close();
    const values = records.map((r) => `(${r['id']}, '${r['published_at']}')`).join(', ');
    const rows = await query(
      file,
      `SELECT v.s, a.published_at = v.s::TIMESTAMPTZ AS same FROM articles a JOIN (VALUES ${values}) v(id, s) ON a.id = v.id`,
    );
    expect(rows).toHaveLength(stamps.length);
    for (const row of rows) expect(row['same'], String(row['s'])).toBe(true);
  });

  it('takes ids as numbers or numeric strings: one row per id', async () => {
    const [a, b] = fixtureArticles(2) as [ApiRecord, ApiRecord];
    const file = freshFile();
    const session = await open(file);
    await session.writeBatch([
      { ...a, title: 'number' },
      { ...a, id: String(a['id']), title: 'string, later' },
    ]);
    await session.writeBatch([
      { ...b, id: String(b['id']) },
      { ...a, title: 'merged' },
    ]);
    await session.close();
    const rows = await query(file, 'SELECT id, title FROM articles ORDER BY id');
    expect(rows.map((r) => [Number(r['id']), r['title']])).toEqual(
      [
        [a['id'], 'merged'],
        [b['id'], b['title']],
      ].sort((x, y) => Number(x[0]) - Number(y[0])),
    );
    expect(await count(file, 'articles__entities')).toBe(listTotal([a, b], 'entities'));
  });

  it('keeps odd characters as they were, in text and in JSON', async () => {
    const odd = 'nul \u0000 tab \t quote " backslash \\ newline \n emoji 🦆 é ü';
    const [record] = fixtureArticles(1) as [ApiRecord];
    const entities = [{ id: 1, name: odd, metadata: { note: odd, list: [1, null, 'x'] } }, 7, null];
    const file = freshFile();
    const session = await open(file);
    await session.writeBatch([{ ...record, title: odd, source: { name: odd }, entities }]);
    await session.close();
    const [row] = await query(
      file,
      'SELECT title, source::VARCHAR AS source, entities::VARCHAR AS entities FROM articles',
    );
    expect(row?.['title']).toBe(odd);
    expect(JSON.parse(String(row?.['source']))).toEqual({ name: odd });
    expect(row?.['entities']).toBe(JSON.stringify(entities));
    const items = await query(
      file,
      'SELECT position, name, metadata::VARCHAR AS metadata FROM articles__entities',
    );
    expect(items).toEqual([
      { position: 0n, name: odd, metadata: JSON.stringify(entities[0]?.['metadata' as never]) },
    ]);
  });

  it('writes into a table another run made, in its column order, its other columns at their default', async () => {
    const file = freshFile();
    const setup = await DuckDBInstance.create(file);
    const c = await setup.connect();
    await c.run(
      `CREATE TABLE articles (note VARCHAR DEFAULT 'kept', title VARCHAR, published_at TIMESTAMPTZ, id BIGINT PRIMARY KEY)`,
    );
    c.closeSync();
    setup.closeSync();
    const records = fixtureArticles(3);
    const notes: string[] = [];
    const session = await open(file, notes);
    await session.writeBatch(records);
    await session.close();
    expect(notes.some((n) => n.includes('added column words_count'))).toBe(true);
    const rows = await query(
      file,
      'SELECT id, title, note, words_count, published_at = $$2000-01-01$$::TIMESTAMPTZ AS y2k FROM articles ORDER BY id',
    );
    const sorted = [...records].sort((x, y) => Number(x['id']) - Number(y['id']));
    expect(rows).toEqual(
      sorted.map((r) => ({
        id: BigInt(r['id'] as number),
        title: r['title'],
        note: 'kept',
        words_count: BigInt(r['words_count'] as number),
        y2k: false,
      })),
    );
  });
});
