/**
 * Statistics for the tables a session made, once their first rows are in.
 * Without any, PostgreSQL guesses that `parent = ANY(ids)` matches a share
 * of a child table that grows with the ids, and a merge's DELETE of child
 * rows read whole child tables until autovacuum first analyzed them: those
 * DELETEs took 2.0 s, 5.6 s, then 9.7 s for each 20,000 articles loaded in
 * pages of 100, as the tables grew (bench/README.md, "Databases"); with
 * statistics the parent index serves them, 0.3 s each 20,000. An engine
 * that has no ANALYZE loads as before.
 */
import type { Client } from 'pg';
import { qualified } from '../database/names.js';

export async function analyzeMade(client: Client, made: readonly string[]): Promise<void> {
  const names = made.map((name) => qualified(name)).join(', ');
  await client.query(`ANALYZE ${names}`).catch(() => undefined);
}
