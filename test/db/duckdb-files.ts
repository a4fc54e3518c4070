/**
 * Reading a DuckDB file back in a test, with an instance of its own (after
 * the writer closed the file).
 */
import { DuckDBInstance } from '@duckdb/node-api';

export async function queryDuckdb(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

export const countDuckdb = async (file: string, table: string): Promise<number> =>
  Number((await queryDuckdb(file, `SELECT count(*) AS n FROM ${table}`))[0]?.['n']);
