// One load of a JSONL file into a database through the destination library
// (the built dist/), without the CLI around it: lines read and parsed,
// batches of --batch records (10,000 by default), each one writeBatch (one
// transaction, awaited before the next batch is read), then finish() and
// close(). Prints {"ms", "peakMB"}. The database benchmarks (db-postgres.mjs,
// db-duckdb.mjs) time `news convert FILE -o URL` instead, and this with
// their --library.
//
//   node bench/db-load-run.mjs URL FILE [--table NAME] [--write merge|append|replace] [--batch 10000]
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { numberOption, option } from './lib.mjs';

const [url, file] = process.argv.slice(2);
const BATCH = numberOption('batch', 10_000);
const { parseDatabaseUrl } = await import('../dist/output/destinations/database/url.js');
const parsed = parseDatabaseUrl(url);
if (parsed === undefined) throw new Error(`${url} is not a database URL`);
const { openPostgres } = await import('../dist/output/destinations/postgres/session.js');
const { openDuckdb } = await import('../dist/output/destinations/duckdb/session.js');
const open = parsed.engine === 'postgres' ? openPostgres : openDuckdb;

const start = process.hrtime.bigint();
const session = await open(
  parsed,
  { kind: 'article', table: option('table', undefined), write: option('write', 'merge') },
  { note: () => undefined },
);
let batch = [];
const lines = createInterface({
  input: createReadStream(file),
  crlfDelay: Number.POSITIVE_INFINITY,
});
for await (const line of lines) {
  if (line === '') continue;
  batch.push(JSON.parse(line));
  if (batch.length === BATCH) {
    await session.writeBatch(batch);
    batch = [];
  }
}
if (batch.length > 0) await session.writeBatch(batch);
await session.finish();
await session.close();
const ms = Number(process.hrtime.bigint() - start) / 1e6;
process.stdout.write(`${JSON.stringify({ ms, peakMB: process.resourceUsage().maxRSS / 1024 })}\n`);
