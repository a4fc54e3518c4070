// The reference for the PostgreSQL load benchmark: a minimal pg-copy-streams
// script that streams a CSV file into an equivalent table (the articles'
// columns, same types, nested values as jsonb; no child tables) with one
// `COPY … FROM STDIN (FORMAT csv, HEADER)`, the table made fresh.
//
//   node bench/db-pg-copy.mjs URL FILE.csv TABLE
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from } from 'pg-copy-streams';

const [url, file, table] = process.argv.slice(2);
const { KIND_TABLES } = await import('../dist/output/destinations/database/fields.js');
const TYPES = {
  text: 'text',
  bigint: 'bigint',
  double: 'double precision',
  boolean: 'boolean',
  timestamptz: 'timestamptz',
  json: 'jsonb',
};
const fields = KIND_TABLES.article.fields;
const client = new pg.Client({ connectionString: url });
await client.connect();
await client.query(`DROP TABLE IF EXISTS ${table}`);
await client.query(
  `CREATE TABLE ${table} (${fields.map((f) => `"${f.name}" ${TYPES[f.type]}`).join(', ')}, PRIMARY KEY (id))`,
);
await pipeline(
  createReadStream(file, { highWaterMark: 1 << 20 }),
  client.query(from(`COPY ${table} FROM STDIN (FORMAT csv, HEADER)`)),
);
await client.end();
