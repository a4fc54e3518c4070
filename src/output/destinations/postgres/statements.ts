/**
 * A session's statements, sent with as few round trips as the protocol
 * allows: statements that need no answer and take no parameters (BEGIN, a
 * SAVEPOINT, the state's row written as literals) wait and go out in front
 * of the next statement, as one multi-statement query. A batch of articles
 * takes about ten round trips instead of fifteen, which a server across a
 * network, or a busy machine, makes worth it. A COPY goes alone (its data
 * follows it), so what waits goes out just before it.
 */
import type { Client, QueryResult, QueryResultRow } from 'pg';
import { copyLines } from './copy.js';

export class Statements {
  private waiting: string[] = [];

  constructor(private readonly client: Client) {}

  /** Sent in front of the next statement (or at flush()). */
  defer(sql: string): void {
    this.waiting.push(sql);
  }

  /** Forgets what waits (the transaction it belonged to was rolled back). */
  drop(): void {
    this.waiting = [];
  }

  async query<T extends QueryResultRow = QueryResultRow>(
    sql: string,
    params?: unknown[],
  ): Promise<QueryResult<T>> {
    if (this.waiting.length > 0) {
      // Parameters need the extended protocol, which takes one statement at a time.
      if (params !== undefined) await this.flush();
      else {
        const text = [...this.waiting, sql].join(';\n');
        this.waiting = [];
        const results = (await this.client.query<T>(text)) as QueryResult<T> | QueryResult<T>[];
        return Array.isArray(results) ? (results.at(-1) as QueryResult<T>) : results;
      }
    }
    return this.client.query<T>(sql, params);
  }

  async flush(): Promise<void> {
    if (this.waiting.length === 0) return;
    const text = this.waiting.join(';\n');
    this.waiting = [];
    await this.client.query(text);
  }

  /** `COPY … FROM STDIN` of the lines, after what waits. */
  async copy(sql: string, lines: Iterable<string | Uint8Array>): Promise<void> {
    await this.flush();
    await copyLines(this.client, sql, lines);
  }

  /** A value as an SQL literal, for a deferred statement (quotes and backslashes escaped). */
  literal(value: string): string {
    return this.client.escapeLiteral(value);
  }
}

/**
 * The ids as an array literal (`'{1,2,3}'::bigint[]`) when every one is a
 * whole number, so a statement on them can wait to be sent; otherwise
 * undefined (they go as a parameter, and the server says what is wrong).
 */
export function idArray(ids: readonly unknown[]): string | undefined {
  const parts: string[] = [];
  for (const id of ids) {
    if (typeof id === 'number' && Number.isSafeInteger(id)) parts.push(String(id));
    else if (typeof id === 'string' && /^-?\d{1,19}$/.test(id)) parts.push(id);
    else return undefined;
  }
  return `'{${parts.join(',')}}'::bigint[]`;
}
