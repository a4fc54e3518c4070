/**
 * A mock left running with `--publish-rate` keeps a bounded number of the
 * articles it published: past MAX_PUBLISHED_ARTICLES the oldest are dropped
 * from the index (a note on stderr says so, once), and once enough are
 * dropped the table is rebuilt without them, so memory stays flat whatever
 * the uptime. Fixture and posted articles are never dropped.
 */
import type { Article } from './fixtures/article-types.js';
import { f64 } from './store/grow.js';
import { compactTable, reserveRows } from './store/table-layout.js';
import type { FixtureStore } from './store/fixture-store.js';

/** Published articles kept: about 28 hours at 60 a minute, more than a stream replays (24 h). */
export const MAX_PUBLISHED_ARTICLES = 100_000;
/** Dropped rows the table holds before it is rebuilt without them. */
const COMPACT_AFTER = 25_000;

export class PublishedCap {
  /** Ids of the published articles still indexed, oldest first (a queue over a growing array). */
  private ids = f64();
  private head = 0;
  private noted = false;

  constructor(
    private readonly store: FixtureStore,
    private readonly log: ((line: string) => void) | undefined,
    private readonly max = MAX_PUBLISHED_ARTICLES,
    private readonly compactAfter = COMPACT_AFTER,
  ) {}

  /** The table is never larger than this with publishing on: reserved at once, it never grows by steps. */
  reserve(): void {
    const t = this.store.table;
    reserveRows(t, t.rows + this.max + this.compactAfter);
  }

  /** Takes note of a published batch; drops the oldest past the cap. */
  published(articles: readonly Article[]): void {
    for (const a of articles) this.ids.push(a.id);
    const over = this.ids.length - this.head - this.max;
    if (over <= 0) return;
    if (!this.noted) {
      this.noted = true;
      this.log?.(
        `note: the mock keeps the newest ${this.max.toLocaleString('en-US')} published articles; older ones are dropped from now on (docs/MOCK.md, "A mock left running")`,
      );
    }
    const rows = new Set<number>();
    for (let i = 0; i < over; i++) {
      const row = this.store.rowOf(this.ids.data[this.head++] as number);
      if (row !== undefined) rows.add(row);
    }
    this.store.table.remove(rows);
    if (this.store.table.dropped >= this.compactAfter) compactTable(this.store.table);
    // The queue's spent front is reclaimed now and then, not per article.
    if (this.head >= this.max) {
      const rest = this.ids.data.slice(this.head, this.ids.length);
      this.ids = f64(rest);
      this.head = 0;
    }
  }
}
