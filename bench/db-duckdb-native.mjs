// How fast DuckDB's own JSON reader fills the tables `news convert -o
// duckdb:` makes (the table and its six child tables): the floor a load
// that let DuckDB parse the file itself could reach, beside the two sides
// of bench/db-duckdb.mjs. Not a path of the product: a measurement for
// deciding whether one is worth building (bench/README.md, "Databases").
//
// The tables are made by `news convert` of the file's first 20 lines, then
// emptied; the load stages the whole file with `read_json` typed by the
// table's own columns, inserts it, and fills each child table from the
// list column with `from_json` and `unnest`. With `--check`, the tables
// are compared with a real `news convert` of the file (row counts and
// hashes of their columns).
//
//   npm run build && node bench/db-duckdb-native.mjs [--articles 20000] [--check]
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { apiArticles } from './api-articles.mjs';
import { BIN, numberOption } from './lib.mjs';

const articles = numberOption('articles', 20_000);
const WORK = mkdtempSync(join(tmpdir(), 'news-bench-native-'));
process.on('exit', () => rmSync(WORK, { recursive: true, force: true }));
const input = await apiArticles(articles);
const quote = (text) => `'${text.replaceAll("'", "''")}'`;

function convert(file, out) {
  const run = spawnSync(process.execPath, [BIN, 'convert', file, '-o', `duckdb:${out}`, '--quiet']);
  if (run.status !== 0) throw new Error(`news convert failed: ${run.stderr}`);
}

async function columns(con, table) {
  const reader = await con.runAndReadAll(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ${quote(table)} ORDER BY ordinal_position`,
  );
  return reader.getRows().map(([name, type]) => ({ name: String(name), type: String(type) }));
}

async function tablesOf(con) {
  const reader = await con.runAndReadAll(
    `SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'articles%' ORDER BY 1`,
  );
  return reader.getRows().map(([name]) => String(name));
}

/** The native load into OUT, whose tables exist and are empty; seconds. */
async function nativeLoad(out) {
  const started = performance.now();
  const db = await DuckDBInstance.create(out);
  const con = await db.connect();
  const main = await columns(con, 'articles');
  const typed = main.map((c) => `"${c.name}": ${quote(c.type)}`).join(', ');
  await con.run(
    `CREATE TEMP TABLE stage AS SELECT * FROM read_json(${quote(input)}, format = 'newline_delimited', columns = {${typed}})`,
  );
  await con.run('INSERT INTO articles SELECT * FROM stage');
  for (const table of (await tablesOf(con)).filter((t) => t !== 'articles')) {
    const field = table.slice('articles__'.length);
    const items = (await columns(con, table)).slice(2);
    const shape = `[{${items.map((c) => `"${c.name}": "${c.type}"`).join(', ')}}]`;
    await con.run(
      `INSERT INTO "${table}" SELECT id, generate_subscripts(list, 1) - 1, ${items
        .map((c) => `(unnest(list))."${c.name}"`)
        .join(', ')} FROM (SELECT id, from_json("${field}", ${quote(shape)}) AS list FROM stage)`,
    );
  }
  con.closeSync();
  db.closeSync();
  return (performance.now() - started) / 1000;
}

/** Row counts and a hash of every column, table by table. */
async function fingerprint(file) {
  const db = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const con = await db.connect();
  const out = [];
  for (const table of await tablesOf(con)) {
    const cols = (await columns(con, table)).map((c) => `"${c.name}"::VARCHAR`).join(', ');
    const row = (
      await con.runAndReadAll(`SELECT count(*), sum(hash(${cols})) FROM "${table}"`)
    ).getRows()[0];
    out.push(`${table} ${row[0]} ${row[1]}`);
  }
  con.closeSync();
  db.closeSync();
  return out;
}

/** The file's first N lines, from its first MB (an article is ~6 KB), not the whole 125 MB. */
function firstLines(file, n) {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8').split('\n', n);
  } finally {
    closeSync(fd);
  }
}

const lines = firstLines(input, 20);
const head = join(WORK, 'head.jsonl');
writeFileSync(head, `${lines.join('\n')}\n`);
const native = join(WORK, 'native.duckdb');
convert(head, native);
{
  const db = await DuckDBInstance.create(native);
  const con = await db.connect();
  for (const table of await tablesOf(con)) await con.run(`DELETE FROM "${table}"`);
  await con.run('CHECKPOINT');
  con.closeSync();
  db.closeSync();
}
const seconds = await nativeLoad(native);
console.log(
  `${articles} articles: DuckDB's own reader filled the seven tables in ${seconds.toFixed(2)} s`,
);
if (process.argv.includes('--check')) {
  const ours = join(WORK, 'ours.duckdb');
  convert(input, ours);
  const [a, b] = [await fingerprint(native), await fingerprint(ours)];
  console.log(a.join('\n'));
  console.log(
    a.join() === b.join()
      ? 'the same rows as news convert'
      : `news convert differs:\n${b.join('\n')}`,
  );
}
