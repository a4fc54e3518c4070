// The PostgreSQL load, side by side with the reference (bench/README.md,
// "Databases"): N API-shaped articles (bench/api-articles.mjs) into a fresh
// table with its six child tables by `news convert FILE -o URL` (batches of
// 1,000, one transaction each, the file parsed and encoded on a worker
// thread; NEWS_NO_FAST_PATHS=1 for the plain path), against
// a minimal pg-copy-streams script COPYing the same records' CSV into an
// equivalent table (bench/db-pg-copy.mjs). Both are whole processes against
// the same server, alternated, `--runs` rounds; the figure is the median of
// the per-round ratios. With `--memory N`, one more load of N records and
// its peak memory against `news convert` of the same file to JSONL.
// `--library` times the destination library through bench/db-load-run.mjs
// instead (`--batch N` records a transaction).
//
//   npm run build && node bench/db-postgres.mjs [--articles 20000] [--runs 3] [--memory 100000] [--library [--batch 10000]]
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { apiArticles } from './api-articles.mjs';
import { startBenchPostgres } from './db-server.mjs';
import { BIN, median, numberOption, timeNode } from './lib.mjs';

const articles = numberOption('articles', 20_000);
const runs = numberOption('runs', 3);
const memory = numberOption('memory', 0);
/** Records per batch of --library (convert's is 1,000). */
const batch = String(numberOption('batch', 10_000));

const { KIND_TABLES } = await import('../dist/output/destinations/database/fields.js');
const fields = KIND_TABLES.article.fields;

/** A CSV cell as PostgreSQL's COPY (FORMAT csv) reads it: empty and unquoted is NULL. */
function cell(value) {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return `"${text.replaceAll('"', '""')}"`;
}

/** The corpus as CSV, one column per top-level field (written once, beside the JSONL). */
async function csvOf(jsonl) {
  const path = jsonl.replace(/\.jsonl$/, '.csv');
  if (existsSync(path)) return path;
  const out = createWriteStream(`${path}.tmp`);
  out.write(`${fields.map((f) => f.name).join(',')}\n`);
  const lines = createInterface({ input: createReadStream(jsonl), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const record = JSON.parse(line);
    if (!out.write(`${fields.map((f) => cell(record[f.name])).join(',')}\n`))
      await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  renameSync(`${path}.tmp`, path);
  return path;
}

async function sql(url, text) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

const dropOurs = (url) =>
  sql(
    url,
    `DROP TABLE IF EXISTS articles, ${KIND_TABLES.article.children.map((c) => `articles__${c.field}`).join(', ')}`,
  );

/** `news convert FILE -o URL` (the CLI, as a user runs it), or the library through db-load-run.mjs with --library. */
const library = process.argv.includes('--library');
const loadOurs = (file) =>
  library
    ? timeNode(['bench/db-load-run.mjs', server.url, file, '--batch', batch])
    : timeNode([BIN, 'convert', file, '-o', server.url, '--quiet']);

const jsonl = await apiArticles(articles);
const csv = await csvOf(jsonl);
const server = await startBenchPostgres();
try {
  const ours = [];
  const reference = [];
  const ratios = [];
  let counts;
  for (let i = 0; i < runs; i++) {
    await dropOurs(server.url);
    // Each load starts from a checkpoint: the WAL the one before wrote is not written out in its time.
    await sql(server.url, 'CHECKPOINT');
    const a = timeNode(['bench/db-pg-copy.mjs', server.url, csv, 'reference']);
    await sql(server.url, 'CHECKPOINT');
    const b = loadOurs(jsonl);
    reference.push(a);
    ours.push(b);
    ratios.push(b / a);
    counts = await sql(
      server.url,
      `SELECT (SELECT count(*) FROM articles) AS articles, (SELECT count(*) FROM reference) AS reference,
        (SELECT count(*) FROM articles__entities) AS entities`,
    );
  }
  console.log(
    `PostgreSQL load of ${articles} articles (${library ? `library, batches of ${batch}` : 'news convert'}, ${runs} rounds; rows ${JSON.stringify(counts[0])})`,
  );
  console.log(
    `  reference: COPY of the CSV  median ${median(reference).toFixed(0)} ms  ${reference.map((x) => x.toFixed(0)).join(' ')}`,
  );
  console.log(
    `  news library (+ 6 child tables)  median ${median(ours).toFixed(0)} ms  ${ours.map((x) => x.toFixed(0)).join(' ')}`,
  );
  console.log(
    `  ratio (median of rounds): ${median(ratios).toFixed(2)}x  ${ratios.map((x) => x.toFixed(2)).join(' ')}`,
  );

  if (memory > 0) {
    const big = await apiArticles(memory);
    await dropOurs(server.url);
    const peak = (args) => {
      const run = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, ...args], {
        encoding: 'utf8',
      });
      if (run.status !== 0) throw new Error(run.stderr);
      const [seconds, kb] = run.stderr.trim().split('\n').at(-1).split(' ').map(Number);
      return { seconds, mb: kb / 1024 };
    };
    const load = peak([BIN, 'convert', big, '-o', server.url, '--quiet']);
    const ref = peak([BIN, 'convert', big, '-o', `${big}.copy.jsonl`, '--quiet']);
    console.log(
      `peak memory, ${memory} records: news convert into PostgreSQL ${load.mb.toFixed(0)} MB (${load.seconds.toFixed(1)} s); news convert to JSONL ${ref.mb.toFixed(0)} MB; ratio ${(load.mb / ref.mb).toFixed(2)}x`,
    );
  }
} finally {
  await server.stop();
}
