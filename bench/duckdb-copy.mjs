// DuckDB's own JSONL → Parquet, for the export benchmark's comparison:
//   node bench/duckdb-copy.mjs IN.jsonl OUT.parquet
// DuckDB's defaults (all cores, its own memory limit), SNAPPY, nested
// STRUCT/LIST columns as read_json infers them.
import { DuckDBInstance } from '@duckdb/node-api';

const [input, output] = process.argv.slice(2);
const quote = (s) => `'${s.replace(/'/g, "''")}'`;
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(
  `COPY (SELECT * FROM read_json(${quote(input)})) TO ${quote(output)} (FORMAT parquet, COMPRESSION snappy)`,
);
con.closeSync();
db.closeSync();
