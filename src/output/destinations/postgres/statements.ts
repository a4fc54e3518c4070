/**
 * A session's statements, sent with as few round trips as the protocol
 * allows: statements that need no answer and take no parameters (BEGIN, a
 * SAVEPOINT, the child tables' DELETE, the state's row written as
 * literals) and COPYs wait, and go out with the next statement that needs
 * one, as one message with the COPY data behind it (pipeline.ts). A batch
 * of articles took seventeen round trips; now one, once a batch's ids were
 * all new to the table (the session's copyNew), and three when it asks.
 */
import type { Client, QueryResult, QueryResultRow } from 'pg';
import { type Part, Pipeline } from './pipeline.js';

export class Statements {
  private waiting: Part[] = [];

  constructor(private readonly client: Client) {}

  /** Sent in front of the next statement (or at flush()). */
  defer(sql: string): void {
    this.waiting.push(sql);
  }

  /** `COPY … FROM STDIN` of the lines, sent in front of the next statement. */
  deferCopy(sql: string, lines: Iterable<string | Uint8Array>): void {
    this.waiting.push({ sql, lines });
  }

  /** Forgets what waits (the transaction it belonged to was rolled back). */
  drop(): void {
    this.waiting = [];
  }

  async query<T extends QueryResultRow = QueryResultRow>(
    sql: string,
    params?: unknown[],
  ): Promise<QueryResult<T>> {
    // What waits goes first; with parameters (the extended protocol, one
    // statement at a time) or COPY data (no rows read back), on its own.
    if (params !== undefined || this.waiting.some((p) => typeof p !== 'string')) {
      await this.flush();
    } else if (this.waiting.length > 0) {
      const text = [...(this.waiting as string[]), sql].join(';\n');
      this.waiting = [];
      const results = (await this.client.query<T>(text)) as QueryResult<T> | QueryResult<T>[];
      return Array.isArray(results) ? (results.at(-1) as QueryResult<T>) : results;
    }
    return this.client.query<T>(sql, params);
  }

  /** What waits and `sql` in one message, whose answer holds nothing to read (COMMIT). */
  async send(sql: string): Promise<void> {
    this.waiting.push(sql);
    await this.flush();
  }

  async flush(): Promise<void> {
    if (this.waiting.length === 0) return;
    const pipeline = new Pipeline(this.waiting);
    this.waiting = [];
    this.client.query(pipeline as never);
    await pipeline.done;
  }

  /** `COPY … FROM STDIN` of the lines, after what waits, now: its failure is the caller's to handle. */
  async copy(sql: string, lines: Iterable<string | Uint8Array>): Promise<void> {
    this.deferCopy(sql, lines);
    await this.flush();
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
