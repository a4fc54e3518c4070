/**
 * How a PostgreSQL run commits: each batch's commit does not wait for the
 * disk, and the run's end (finish, or close after a failure) waits once for
 * all of them. The WAL writer is slowed down (10 s between its flushes, no
 * flush for volume) so that nothing but the session makes the WAL durable
 * within the test: the flush position is read from a second connection.
 * The server commits synchronously, as servers do by default.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresSession, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { fixtureArticles } from './records.js';

let server: TestPostgres;
let watcher: pg.Client;

beforeAll(async () => {
  server = await startPostgres();
  watcher = new pg.Client({ connectionString: server.url });
  await watcher.connect();
  // The test server's default is off, for speed: here it is a server's usual on.
  await watcher.query('ALTER SYSTEM SET synchronous_commit = on');
  await watcher.query(`ALTER SYSTEM SET wal_writer_delay = '10s'`);
  await watcher.query(`ALTER SYSTEM SET wal_writer_flush_after = '1GB'`);
  await watcher.query('SELECT pg_reload_conf()');
}, 120_000);
afterAll(async () => {
  await watcher?.end();
  await server?.stop();
});

/** How far the WAL was written, and how far of it is on disk. */
async function wal(): Promise<{ written: bigint; durable: bigint }> {
  const { rows } = await watcher.query<{ written: string; durable: string }>(
    `SELECT pg_current_wal_insert_lsn() - '0/0' AS written, pg_current_wal_flush_lsn() - '0/0' AS durable`,
  );
  return { written: BigInt(rows[0]!.written), durable: BigInt(rows[0]!.durable) };
}

const open = (url: string) => openPostgresSession(url);

describe('commits', () => {
  it('a batch commits without waiting for the disk; finish() makes every batch durable', async () => {
    const url = await server.createDatabase('finish');
    const session = await open(url);
    const records = fixtureArticles(40);
    await session.writeBatch(records.slice(0, 20));
    await session.writeBatch(records.slice(20), { name: 'job', value: '{"watermark":1}' });
    const before = await wal();
    expect(before.durable, 'the batches are not on disk yet').toBeLessThan(before.written);

    await session.finish();
    const after = await wal();
    expect(after.durable).toBeGreaterThanOrEqual(before.written);
    await session.close();
  });

  it('a run that fails after committing batches still makes them durable as it closes', async () => {
    const url = await server.createDatabase('failed');
    const session = await open(url);
    await session.writeBatch(fixtureArticles(10));
    // A value its column cannot hold fails the batch (rolled back); the first stays committed.
    const bad = { ...fixtureArticles(1)[0]!, id: 999_999_001, published_at: 'not a date' };
    await expect(session.writeBatch([bad])).rejects.toThrow();
    const before = await wal();
    await session.close();
    const after = await wal();
    expect(after.durable).toBeGreaterThanOrEqual(before.written);
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    const { rows } = await reader.query('SELECT count(*)::int AS n FROM articles');
    await reader.end();
    expect(rows[0].n).toBe(10);
  });

  it('a state sent as literals with the commit comes back as written, quotes and backslashes too', async () => {
    const url = await server.createDatabase('literals');
    const value = JSON.stringify({ note: `it's a \\ path; DROP TABLE x; --`, n: 1 });
    const session = await open(url);
    await session.writeBatch(fixtureArticles(3), { name: "o'brien\\job", value });
    await session.writeBatch([], { name: "o'brien\\job", value });
    const stored = await session.readState("o'brien\\job");
    expect(JSON.parse(stored ?? 'null')).toEqual(JSON.parse(value));
    await session.finish();
    await session.close();
  });
});
