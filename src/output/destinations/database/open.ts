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
 * Whether a session loads a JSON Lines file whole (`loadFile`): DuckDB by its
 * own `read_json`, PostgreSQL with a worker thread that parses and encodes.
 * Every engine does today; a new one need not.
 */
export function readsFiles(url: DatabaseUrl): boolean {
  return url.engine === 'duckdb' || url.engine === 'postgres';
}

/** Who reads the file on that path, for `-v`. */
export function fileReader(engine: DatabaseUrl['engine']): string {
  return engine === 'duckdb' ? "duckdb's own JSON reader" : 'a worker thread';
}
