// DuckDB's own JSONL → FORMAT, for the export benchmark's comparison:
//   node bench/duckdb-copy.mjs IN.jsonl OUT [parquet|csv|json]
// `COPY (SELECT * FROM read_json(IN)) TO OUT (FORMAT …)` with DuckDB's
// defaults (all cores, its own memory limit); Parquet with SNAPPY, nested
// STRUCT/LIST columns as read_json infers them.
import { DuckDBInstance } from '@duckdb/node-api';

const [input, output, format = 'parquet'] = process.argv.slice(2);
const OPTIONS = {
  parquet: 'FORMAT parquet, COMPRESSION snappy',
  csv: 'FORMAT csv',
  json: 'FORMAT json',
};
if (OPTIONS[format] === undefined) throw new Error(`no DuckDB format ${format}`);
const quote = (s) => `'${s.replace(/'/g, "''")}'`;
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(
  `COPY (SELECT * FROM read_json(${quote(input)})) TO ${quote(output)} (${OPTIONS[format]})`,
);
con.closeSync();
db.closeSync();
