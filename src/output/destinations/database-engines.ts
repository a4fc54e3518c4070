/**
 * The database engines a `postgres://` or `duckdb:` destination opens, each
 * imported on first use: `pg` and DuckDB's binding (about 68 MB) never load
 * for a run that writes files.
 */
import type { DatabaseEngine, OpenDatabase } from './database/types.js';

const ENGINES: Readonly<Record<DatabaseEngine, () => Promise<OpenDatabase>>> = {
  postgres: async () => (await import('./postgres/session.js')).openPostgres,
  duckdb: async () => (await import('./duckdb/session.js')).openDuckdb,
};

export const openDatabase: OpenDatabase = async (url, options, hooks) =>
  (await ENGINES[url.engine]())(url, options, hooks);
