/**
 * What was indexed since the server started, in indexing order, for the
 * stream's replay: a reconnect carrying `Last-Event-ID` (or a WebSocket
 * `resume`) gets the articles indexed after that id, within `stream.max_age`.
 * It subscribes to the article bus before any stream does, so a stream's own
 * listener always finds the batch it is told about already here.
 */
import type { ArticleBus } from './article-bus.js';
import type { MockClock } from './clock.js';
import type { Article } from './fixtures/types.js';

interface Entry {
  readonly article: Article;
  readonly indexedMs: number;
}

/** Kept: the longest replay window (STREAM_MAX_AGE.max minutes) or this many articles, whichever is less. */
export const JOURNAL_MAX_ENTRIES = 200_000;

export class StreamJournal {
  private entries: Entry[] = [];
  /** Absolute position of entries[0]: positions survive trimming. */
  private offset = 0;
  private readonly positionById = new Map<number, number>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly clock: MockClock,
    bus: ArticleBus,
    private readonly maxAgeMs: number,
    private readonly maxEntries = JOURNAL_MAX_ENTRIES,
  ) {
    this.unsubscribe = bus.subscribe((articles) => this.append(articles));
  }

  /**
   * The id of the newest article indexed since the server started, or 0
   * before any: resuming after it (`after(String(newestId))`) gives exactly
   * what is indexed from now on. A stream tells it at connect (its position).
   */
  get newestId(): number {
    return this.entries.at(-1)?.article.id ?? 0;
  }

  /** The position after the newest entry: `since(end)` later gives what was indexed in between. */
  get end(): number {
    return this.offset + this.entries.length;
  }

  private append(articles: readonly Article[]): void {
    const now = this.clock.nowMs();
    for (const article of articles) {
      this.positionById.set(article.id, this.end);
      this.entries.push({ article, indexedMs: now });
    }
    this.trim(now);
  }

  private trim(now: number): void {
    let drop = Math.max(0, this.entries.length - this.maxEntries);
    while (drop < this.entries.length && this.entries[drop]!.indexedMs < now - this.maxAgeMs)
      drop++;
    // Trimmed in steps, not per article: splicing the front of a long array is O(n).
    if (drop < 1024 && drop < this.entries.length / 2) return;
    for (const { article } of this.entries.slice(0, drop)) this.positionById.delete(article.id);
    this.entries = this.entries.slice(drop);
    this.offset += drop;
  }

  /**
   * Articles indexed after `lastEventId` and within `maxAgeMs` of now, oldest
   * first. An id the journal does not know (an old fixture article, an id
   * trimmed away) counts by value: ids grow in indexing order.
   */
  after(lastEventId: string, maxAgeMs: number): Article[] {
    const id = Number(lastEventId);
    const known = Number.isFinite(id) ? this.positionById.get(id) : undefined;
    const since = this.clock.nowMs() - maxAgeMs;
    const out: Article[] = [];
    const start = known === undefined ? 0 : known + 1 - this.offset;
    for (let i = Math.max(0, start); i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (entry.indexedMs < since) continue;
      if (known === undefined && !(entry.article.id > id)) continue;
      out.push(entry.article);
    }
    return out;
  }

  /** Articles indexed at or after position `position` (from `end`). */
  since(position: number): Article[] {
    return this.entries.slice(Math.max(0, position - this.offset)).map((e) => e.article);
  }

  close(): void {
    this.unsubscribe();
  }
}
