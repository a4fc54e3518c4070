/**
 * Opens the session of a parsed database URL, loading its engine's module
 * (and so `pg` or DuckDB) only now: nothing of either is on the start-up
 * path of a command that does not write to a database.
 */
import type {
  DatabaseHooks,
  DatabaseSession,
  DatabaseUrl,
  OpenDatabase,
  TableOptions,
} from './types.js';

export const openDatabase: OpenDatabase = async (
  url: DatabaseUrl,
  options: TableOptions,
  hooks: DatabaseHooks,
): Promise<DatabaseSession> => {
  if (url.engine === 'postgres') {
    const { openPostgres } = await import('../postgres/session.js');
    return openPostgres(url, options, hooks);
  }
  const { openDuckdb } = await import('../duckdb/session.js');
  return openDuckdb(url, options, hooks);
};

/**
 * Who reads a JSON Lines file a session loads whole (its `loadFile`), for
 * `-v`: DuckDB its own `read_json`, PostgreSQL a worker thread that parses
 * and encodes.
 */
export function fileReader(engine: DatabaseUrl['engine']): string {
  return engine === 'duckdb' ? "duckdb's own JSON reader" : 'a worker thread';
}
