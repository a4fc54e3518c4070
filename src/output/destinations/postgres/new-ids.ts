/**
 * A merge's batch whose ids are all new to the table, COPYed straight into
 * it instead of through the staging table (the session's loadRows).
 */
import type { FieldDef } from '../database/fields.js';
import { bareName, qualified } from '../database/names.js';
import type { BatchRows } from './copy.js';
import { copyInto, idsTaken } from './sql.js';
import type { Statements } from './statements.js';

/** What a transaction knows of its batch sent unasked. */
export interface Unasked {
  /** The table its batch went into unasked, where a key may refuse it at COMMIT. */
  unasked: string | undefined;
}

export class NewIds {
  /** The last batch's ids were all new to the table: the next goes straight in, unasked. */
  guess = false;

  constructor(private readonly sql: Statements) {}

  /**
   * A batch whose ids are all new to the table (a first load, the newest
   * pages) is COPYed straight into it: the rows a merge would write, without
   * writing them twice. Should another writer add one of the ids meanwhile,
   * the key refuses the COPY, which is undone to its savepoint, and the
   * batch merges through the staging table.
   *
   * The batch's COPY waits, to go out with the COMMIT (statements.ts).
   *
   * Asking costs a round trip, and so does knowing at once that the COPY
   * went in. So once a batch's ids were all new, the next is not asked
   * about: its COPY goes out with the COMMIT, behind a savepoint, and in the
   * rare batch where the key refuses it (a page that reaches back into what
   * the table holds), the session's transaction() goes back to the savepoint and the batch
   * goes again, asked.
   */
  async copy(
    tx: Unasked,
    target: string,
    columns: readonly FieldDef[],
    batch: BatchRows,
    literal: string | undefined,
  ): Promise<boolean> {
    // Ids that need a parameter take the asked way: their DELETE goes out on its own, before the COMMIT.
    if (this.guess && literal !== undefined) {
      this.sql.defer('SAVEPOINT news_new');
      this.sql.deferCopy(copyInto(qualified(target), columns), batch.main(columns));
      this.sql.defer('RELEASE SAVEPOINT news_new');
      tx.unasked = bareName(target);
      return true;
    }
    const { ids } = batch;
    // The savepoint goes out with the question (one round trip), and is released with what follows.
    this.sql.defer('SAVEPOINT news_new');
    const { rows: found } =
      literal !== undefined
        ? await this.sql.query<{ taken: boolean }>(idsTaken(target, literal))
        : await this.sql.query<{ taken: boolean }>(idsTaken(target), [ids]);
    if (found[0]?.taken !== false) {
      this.sql.defer('RELEASE SAVEPOINT news_new');
      return false;
    }
    try {
      await this.sql.copy(copyInto(qualified(target), columns), batch.main(columns));
    } catch (error) {
      if ((error as { code?: unknown }).code !== '23505') throw error;
      await this.sql.query('ROLLBACK TO SAVEPOINT news_new');
      this.sql.defer('RELEASE SAVEPOINT news_new');
      return false;
    }
    this.sql.defer('RELEASE SAVEPOINT news_new');
    this.guess = true;
    return true;
  }

  /** The key of the table a batch went into unasked refused it. */
  static refused(error: unknown, tx: Unasked): boolean {
    const { code, table } = error as { code?: unknown; table?: unknown };
    return tx.unasked !== undefined && code === '23505' && table === tx.unasked;
  }
}
