/**
 * A session's statements, sent with as few round trips as the protocol
 * allows: statements that need no answer and take no parameters (BEGIN, a
 * SAVEPOINT, the child tables' DELETE, the state's row written as
 * literals) and COPYs wait, and go out with the next statement that needs
 * one, as one message with the COPY data behind it (pipeline.ts). A batch
 * of articles took seventeen round trips; now one, once a batch's ids were
 * all new to the table (new-ids.ts), and three when it asks.
 */
import type { Client, QueryResult, QueryResultRow } from 'pg';
import { type Part, Pipeline } from './pipeline.js';

export class Statements {
  private waiting: Part[] = [];
  /** The last message sent with its COPY data, answered or not. */
  private last: Pipeline | undefined;
  /** Settles when the transaction making statements is done with them (take()). */
  private inUse: Promise<void> = Promise.resolve();

  constructor(private readonly client: Client) {}

  /**
   * Waits until no other transaction adds to the statements; the function
   * returned hands them on. A transaction makes its statements while the
   * one before it may still be answered, and goes back to them when that
   * one needs it (the session's transaction()).
   */
  async take(): Promise<() => void> {
    const before = this.inUse;
    let hand!: () => void;
    this.inUse = new Promise<void>((resolve) => {
      hand = resolve;
    });
    await before;
    return hand;
  }

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

  /**
   * What waits and `sql` (COMMIT) in one message, written right behind the
   * last one's data while the server still works on it, instead of after
   * its answer: the server finds the next transaction waiting. The caller
   * owns what that means: should the last message fail, this one runs in
   * its failed transaction and fails too (SQLSTATE 25P02); should the last
   * fail at its COMMIT, this one commits on its own.
   */
  async sendAhead(sql: string): Promise<void> {
    this.waiting.push(sql);
    await this.flush(true);
  }

  async flush(ahead = false): Promise<void> {
    if (this.waiting.length === 0) return;
    const pipeline = new Pipeline(this.waiting);
    this.waiting = [];
    const last = this.last;
    this.last = pipeline;
    const early = ahead && last !== undefined && !last.settled && this.queued().length === 0;
    // Queued at once (node-postgres submits it after the last one's answer):
    // whatever is asked after it goes after it, however early it is written.
    // pg 8 prints a deprecation notice for a query asked while another waits
    // in its queue (pg 9 may refuse it): a run never asks so, two writes in
    // flight at most (cli-export.test.ts checks it); mind it when upgrading.
    this.client.query(pipeline as never);
    if (early) {
      // Behind all of the last one's data, not inside it.
      await last.written;
      if (!last.settled && this.queued()[0] === pipeline) {
        pipeline.submit(this.client.connection as never);
      }
    }
    await pipeline.done;
  }

  /**
   * node-postgres's queue: what goes out after the query under way, in
   * order. A message written ahead must be first in it, or it would take
   * another's answers. The queue is the client's own field: without it
   * (another version), nothing is written ahead.
   */
  private queued(): readonly unknown[] {
    const queue = (this.client as unknown as { _queryQueue?: unknown[] })._queryQueue;
    return Array.isArray(queue) ? queue : [undefined];
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
