/**
 * The switch that turns every fast path off: `NEWS_NO_FAST_PATHS=1` (any
 * value but empty or `0`). Then `news convert` starts no worker threads
 * (parallel/) and reads every line through JSON.parse, so the byte readers
 * and writers of fast/ are never used, and Parquet is written by
 * hyparquet-writer's public `ParquetWriter` (formats/parquet-plain.ts)
 * instead of our column store (fast/parquet/), and a convert into DuckDB
 * goes through the appender, not DuckDB's own reader
 * (destinations/duckdb/file-load.ts), one into PostgreSQL parses on the
 * main thread, not a worker (destinations/postgres/file-load.ts). What
 * comes out is the same:
 * the same bytes for the text formats, the same rows and types for Parquet
 * (docs/OUTPUT.md, "Fast paths"). It is there to tell a bug of a fast path
 * from one of the format, and for the tests, which run both ways.
 */

export const NO_FAST_PATHS_VARIABLE = 'NEWS_NO_FAST_PATHS';

/** Read each time (not at start-up), so a test can set it for one run. */
export function fastPathsOn(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[NO_FAST_PATHS_VARIABLE];
  return value === undefined || value === '' || value === '0';
}
