/**
 * A run's state in PostgreSQL: its advisory lock, taken for the life of the
 * session's connection, and its row of `news_state`, read before the first
 * batch (each batch writes it with its rows, session.ts).
 */
import type { Client } from 'pg';
import { DatabaseLockError } from '../database/errors.js';
import { describeHolder, LOCK_HOLDER, TRY_LOCK } from './sql.js';

/** Takes state `name`'s lock, or throws a DatabaseLockError naming the run that holds it. */
export async function lockState(client: Client, name: string, where: string): Promise<void> {
  const { rows } = await client.query<{ ok: boolean }>(TRY_LOCK, [name]);
  if (rows[0]?.ok === true) return;
  const holder = await client.query<{
    pid: number;
    application_name: string;
    backend_start: Date;
    client: string | null;
  }>(LOCK_HOLDER, [name]);
  throw new DatabaseLockError(
    `another run holds state ${name} in ${where} ${describeHolder(holder.rows[0])}`,
    {
      hint: 'wait for it to finish, or stop it; the same command then continues from its state',
    },
  );
}

/** State `name`'s JSON text in `table`; undefined when the table or the row is not there. */
export async function readState(
  client: Client,
  table: string,
  name: string,
): Promise<string | undefined> {
  const { rows: found } = await client.query<{ t: string | null }>(
    'SELECT to_regclass($1)::text AS t',
    [table],
  );
  if (found[0]?.t == null) return undefined;
  const { rows } = await client.query<{ value: string }>(
    `SELECT value::text AS value FROM ${table} WHERE name = $1`,
    [name],
  );
  return rows[0]?.value;
}
