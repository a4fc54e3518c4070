// The reference for the DuckDB load benchmark: DuckDB's own
// `CREATE TABLE … AS SELECT * FROM read_json_auto(FILE)` into a fresh file,
// with DuckDB's defaults (all cores, its own memory limit).
//
//   node bench/db-duckdb-ctas.mjs FILE.jsonl OUT.duckdb
import { rmSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [input, output] = process.argv.slice(2);
rmSync(output, { force: true });
rmSync(`${output}.wal`, { force: true });
const db = await DuckDBInstance.create(output);
const con = await db.connect();
await con.run(
  `CREATE TABLE articles AS SELECT * FROM read_json_auto('${input.replace(/'/g, "''")}')`,
);
con.closeSync();
db.closeSync();
