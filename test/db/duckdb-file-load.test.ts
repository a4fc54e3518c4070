/**
 * `news convert FILE -o duckdb:…` by DuckDB's own reader (the session's
 * loadFile, a fast path) against the appender path (NEWS_NO_FAST_PATHS=1):
 * the same tables, row for row and column for column, in every write mode
 * and into tables that hold rows already; `-v` says which path ran; what
 * the fast path cannot write exactly so (a field the table lacks, a line it
 * cannot read, a value that does not fit) it declines before writing, and
 * the plain path reports or handles it as it always does; at most a range
 * of lines a transaction.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FieldDef } from '../../src/output/destinations/database/fields.js';
import { layoutFor } from '../../src/output/destinations/database/schema.js';
import { TableSet } from '../../src/output/destinations/database/tables.js';
import { FileLoader } from '../../src/output/destinations/duckdb/file-load.js';
import {
  addColumn,
  COLUMNS_QUERY,
  createTable,
  duckdbDialect,
  existingColumns,
} from '../../src/output/destinations/duckdb/sql.js';
import type { ApiRecord } from '../../src/output/types.js';
import { runCli } from '../helpers/cli.js';
import { BIN, spawnCollecting } from '../helpers/spawn.js';
import { scratchDir } from '../helpers/scratch.js';
import { queryDuckdb } from './duckdb-files.js';
import { fixtureArticles } from './records.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

const FAST = "read by duckdb's own JSON reader";
const dir = scratchDir('duck-file-');
let made = 0;

function jsonl(records: readonly unknown[]): string {
  const file = join(dir, `in${++made}.jsonl`);
  writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

const freshDb = () => join(dir, `db${++made}.duckdb`);

/** `news convert` into DUCKDB, by the fast path or (plain) the appender path. */
async function convert(file: string, db: string, plain: boolean, ...args: string[]) {
  if (plain) vi.stubEnv('NEWS_NO_FAST_PATHS', '1');
  try {
    return await runCli(['convert', file, '-o', `duckdb:${db}`, '-v', ...args]);
  } finally {
    vi.unstubAllEnvs();
  }
}

/** Every table of the file, its rows in order and JSON columns as values (their text may differ in number spelling). */
async function contents(db: string): Promise<Record<string, unknown[]>> {
  const columns = await queryDuckdb(
    db,
    `SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE schema_name = 'main' AND NOT internal ORDER BY table_name, column_index`,
  );
  const tables = new Map<string, { name: string; json: boolean }[]>();
  for (const c of columns) {
    const list = tables.get(String(c['table_name'])) ?? [];
    list.push({ name: String(c['column_name']), json: c['data_type'] === 'JSON' });
    tables.set(String(c['table_name']), list);
  }
  const out: Record<string, unknown[]> = {};
  for (const [table, cols] of tables) {
    const order = cols.some((c) => c.name === 'article_id') ? 'article_id, position' : 'id';
    const select = cols.map((c) => `"${c.name}"::VARCHAR AS "${c.name}"`).join(', ');
    const rows = await queryDuckdb(db, `SELECT ${select} FROM "${table}" ORDER BY ${order}`);
    out[table] = rows.map((row) =>
      Object.fromEntries(
        cols.map((c) => {
          const value = row[c.name];
          return [c.name, c.json && typeof value === 'string' ? JSON.parse(value) : value];
        }),
      ),
    );
  }
  return out;
}

/** Both paths from the same steps (each a file and its convert arguments); the two files' contents. */
async function bothWays(steps: { file: string; args?: string[] }[]) {
  const [fast, plain] = [freshDb(), freshDb()];
  for (const { file, args = [] } of steps) {
    const f = await convert(file, fast, false, ...args);
    expect(f.code, f.stderr).toBe(0);
    expect(f.stderr).toContain(FAST);
    const p = await convert(file, plain, true, ...args);
    expect(p.code, p.stderr).toBe(0);
    expect(p.stderr).not.toContain(FAST);
    // The same lines on stderr but the path's own.
    const notes = (text: string, db: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('note:'))
        .map((l) => l.replace(db, 'DB'));
    expect(notes(f.stderr, fast)).toEqual(notes(p.stderr, plain));
  }
  return { fast: await contents(fast), plain: await contents(plain) };
}

const articles = fixtureArticles(120);
const article = (i: number): ApiRecord => articles[i] as ApiRecord;
/** Later versions of some articles: a title and a list changed. */
const revised = (records: readonly ApiRecord[], tag: string) =>
  records.map((r) => ({
    ...r,
    title: `${String(r['title'])} (${tag})`,
    entities: (r['entities'] as unknown[]).slice(1),
  }));

describe('convert into DuckDB by its own reader', () => {
  it('writes what the appender writes: a fresh file, an id twice in the file (its last version wins)', async () => {
    const odd = {
      ...article(10),
      // An offset, not Z; items that are no objects (skipped, their positions kept).
      published_at: '2026-11-20T10:00:00.123456+02:00',
      entities: [null, 5, ...(article(10)['entities'] as unknown[])],
    };
    const file = jsonl([...articles, ...revised(articles.slice(0, 10), 'v2'), odd]);
    const { fast, plain } = await bothWays([{ file }]);
    expect(fast).toEqual(plain);
    const oddRows = (fast['articles__entities'] as { article_id: string; position: string }[])
      .filter((r) => r.article_id === String(article(10)['id']))
      .map((r) => r.position);
    expect(oddRows[0]).toBe('2');
    expect(fast['articles']).toHaveLength(120);
    expect(
      (fast['articles'] as { title: string }[]).filter((r) => r.title.endsWith('(v2)')),
    ).toHaveLength(10);
    expect(Object.keys(fast)).toHaveLength(7);
  });

  it('merges into a table that holds rows: their rows and child rows replaced', async () => {
    const first = jsonl(articles.slice(0, 80));
    const second = jsonl([...revised(articles.slice(60, 80), 'v3'), ...articles.slice(80)]);
    const { fast, plain } = await bothWays([{ file: first }, { file: second }]);
    expect(fast).toEqual(plain);
    expect(fast['articles']).toHaveLength(120);
  });

  it('--write append and --write replace', async () => {
    const file = jsonl(articles.slice(0, 40));
    const appended = await bothWays([
      { file, args: ['--table', 'log', '--write', 'append'] },
      { file, args: ['--table', 'log', '--write', 'append'] },
    ]);
    expect(appended.fast).toEqual(appended.plain);
    expect(appended.fast['log']).toHaveLength(80);
    const other = jsonl(articles.slice(40, 50));
    const replaced = await bothWays([{ file }, { file: other, args: ['--write', 'replace'] }]);
    expect(replaced.fast).toEqual(replaced.plain);
    expect(replaced.fast['articles']).toHaveLength(10);
  });

  it('declines a field the table lacks: the plain path makes its column', async () => {
    const file = jsonl([...articles.slice(0, 5), { ...article(5), reading_level: 7 }]);
    const db = freshDb();
    const r = await convert(file, db, false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('did not read');
    expect(r.stderr).toContain('field reading_level is not a declared column');
    expect(await queryDuckdb(db, 'SELECT count(reading_level) AS n FROM articles')).toEqual([
      { n: 1n },
    ]);
  });

  it('declines a file name DuckDB would read as a pattern', async () => {
    const file = join(dir, 'saved[1].jsonl');
    writeFileSync(
      file,
      articles
        .slice(0, 3)
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const r = await convert(file, freshDb(), false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('a character DuckDB reads as a pattern');
    expect(r.stderr).toContain('wrote 3 records');
  });

  it('declines what it cannot write exactly so; the plain path reports it, and nothing is written', async () => {
    const good = articles.slice(0, 5).map((r) => JSON.stringify(r));
    const entity = (article(5)['entities'] as ApiRecord[])[0];
    const cases: Record<string, string[]> = {
      'a broken line': [...good, '{"id": 1, "title": '],
      'a record without an id': [...good, JSON.stringify({ ...article(5), id: null })],
      'a word in a number column': [
        ...good,
        JSON.stringify({ ...article(5), words_count: 'many' }),
      ],
      "a word in a child's number column": [
        ...good,
        JSON.stringify({ ...article(5), entities: [{ ...entity, frequency: 'often' }] }),
      ],
    };
    for (const [what, lines] of Object.entries(cases)) {
      const file = join(dir, `bad${++made}.jsonl`);
      writeFileSync(file, lines.join('\n') + '\n');
      const [fastDb, plainDb] = [freshDb(), freshDb()];
      const fast = await convert(file, fastDb, false);
      const plain = await convert(file, plainDb, true);
      expect(fast.stderr, what).toContain('did not read');
      expect(fast.code, what).toBe(plain.code);
      expect(fast.code, what).not.toBe(0);
      const error = (text: string, db: string) =>
        text
          .split('\n')
          .find((l) => l.startsWith('error:'))
          ?.replace(db, 'DB');
      expect(error(fast.stderr, fastDb), what).toBe(error(plain.stderr, plainDb));
      expect(await contents(fastDb), what).toEqual(await contents(plainDb));
    }
  });

  it('kill -9 once a range is committed, then the same command: each record once', async () => {
    // Small articles, several ranges of 10,000.
    const total = 60_000;
    const lines = Array.from({ length: total }, (_, i) =>
      JSON.stringify({
        id: i + 1,
        href: `https://example.com/${i}`,
        published_at: '2026-11-20T10:00:00Z',
        title: `article ${i}`,
        entities: [{ id: i, name: `org ${i % 50}`, type: 'organization', frequency: 1 }],
      }),
    );
    const file = join(dir, 'many.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const db = freshDb();
    const args = [BIN, 'convert', file, '-o', `duckdb:${db}`, '-v'];
    const run = spawnCollecting(process.execPath, args, { ...process.env });
    // DuckDB's file is its writer's alone while the run goes: the fill level
    // observed is what -v says it committed.
    const end = Date.now() + 60_000;
    while (!run.stderr().includes('committed the first') && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 2));
    }
    run.child.kill('SIGKILL');
    expect(await run.exit).toBeNull();
    expect(run.stderr()).not.toContain('wrote');
    // What the killed run committed (a range being written when it was killed is not in).
    const [kept] = await queryDuckdb(db, 'SELECT count(*) AS n FROM articles');
    expect(Number(kept?.['n'])).toBeGreaterThanOrEqual(10_000);
    expect(Number(kept?.['n'])).toBeLessThan(total);
    const again = await convert(file, db, false);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(FAST);
    expect(
      await queryDuckdb(
        db,
        'SELECT count(*) AS n, count(DISTINCT id) AS ids, (SELECT count(*) FROM articles__entities) AS e FROM articles',
      ),
    ).toEqual([{ n: BigInt(total), ids: BigInt(total), e: BigInt(total) }]);
  }, 120_000);

  it('commits at most a range of lines a transaction', async () => {
    const file = jsonl(articles.slice(0, 20));
    const instance = await DuckDBInstance.create(freshDb());
    const connection = await instance.connect();
    const run = async (sql: string) =>
      (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
    try {
      const tables = new TableSet(
        layoutFor({ kind: 'article', write: 'merge' }),
        duckdbDialect,
        'test',
        () => undefined,
        (spec) => spec.name,
      );
      const ops = {
        columns: async (name: string) =>
          existingColumns(
            (await connection.runAndReadAll(COLUMNS_QUERY, [null, name])).getRowObjectsJS(),
          ),
        create: async (
          spec: Parameters<typeof createTable>[0],
          name: string,
          cols: readonly FieldDef[],
        ) => {
          await run(createTable(spec, name, cols));
        },
        add: async (name: string, column: FieldDef) => {
          await run(addColumn(name, column));
        },
      };
      const committed: number[] = [];
      const loader = new FileLoader(
        run,
        tables,
        async (work) => {
          await run('BEGIN TRANSACTION');
          await tables.prepare([], ops);
          await work();
          await run('COMMIT');
          committed.push(Number((await run('SELECT count(*) AS n FROM articles'))[0]?.['n']));
        },
        7,
      );
      expect(await loader.load(file)).toEqual({ records: 20 });
      expect(committed).toEqual([7, 14, 20]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
