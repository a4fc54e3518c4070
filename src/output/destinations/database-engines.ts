/**
 * The database engines a `postgres://` or `duckdb:` destination opens, each
 * imported on first use: `pg` and DuckDB's binding (about 68 MB) never load
 * for a run that writes files.
 */
import { NewsError } from '../../api/errors.js';
import type { DatabaseEngine, OpenDatabase } from './database/types.js';

const ENGINES: Readonly<Record<DatabaseEngine, () => Promise<OpenDatabase>>> = {
  postgres: async () => (await import('./postgres/session.js')).openPostgres,
  // The DuckDB engine lands with its folder (duckdb/session.ts, openDuckdb).
  duckdb: async () => {
    throw new NewsError('duckdb: destinations are not in this build yet', {
      hint: 'write to postgres://…, or to a file DuckDB reads (-o news.parquet)',
    });
  },
};

export const openDatabase: OpenDatabase = async (url, options, hooks) =>
  (await ENGINES[url.engine]())(url, options, hooks);
