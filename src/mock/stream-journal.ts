/**
 * What was indexed since the server started, in indexing order, for the
 * stream's replay: a reconnect carrying `Last-Event-ID` (or a WebSocket
 * `resume`) gets the articles indexed after that id, within `stream.max_age`.
 * It subscribes to the article bus before any stream does, so a stream's own
 * listener always finds the batch it is told about already here.
 *
 * It keeps ids and times only (16 bytes an article): ids grow in indexing
 * order, so a position is found by binary search, and the articles a replay
 * sends are made again from the store.
 */
import type { ArticleBus } from './article-bus.js';
import type { MockClock } from './clock.js';
import type { Article } from './fixtures/article-types.js';
import { f64 } from './store/grow.js';

/** Kept: the longest replay window (STREAM_MAX_AGE.max minutes) or this many articles, whichever is less. */
export const JOURNAL_MAX_ENTRIES = 200_000;

export class StreamJournal {
  private ids = f64();
  private times = f64();
  /** Entries before this index are trimmed. */
  private head = 0;
  /** Absolute position of ids[0]: positions survive trimming. */
  private offset = 0;
  /** Kept apart: trimming by age may empty the arrays, the position stays. */
  private newest = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly clock: MockClock,
    bus: ArticleBus,
    private readonly maxAgeMs: number,
    /** An indexed article by id (the store makes it again). */
    readonly article: (id: number) => Article | undefined,
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
    return this.newest;
  }

  /** The position after the newest entry: `since(end)` later gives what was indexed in between. */
  get end(): number {
    return this.offset + this.ids.length;
  }

  private append(articles: readonly Article[]): void {
    const now = this.clock.nowMs();
    for (const article of articles) {
      this.ids.push(article.id);
      this.times.push(now);
      this.newest = Math.max(this.newest, article.id);
    }
    this.trim(now);
  }

  private trim(now: number): void {
    let head = Math.max(this.head, this.ids.length - this.maxEntries);
    while (head < this.ids.length && (this.times.data[head] as number) < now - this.maxAgeMs)
      head++;
    this.head = head;
    // The arrays are cut in steps, not per article.
    if (head < 1024 || head < this.ids.length / 2) return;
    this.ids = f64(this.ids.data.slice(head, this.ids.length));
    this.times = f64(this.times.data.slice(head, this.times.length));
    this.offset += head;
    this.head = 0;
  }

  /** The position of the oldest entry still kept: a stream behind it has lost articles. */
  get first(): number {
    return this.offset + this.head;
  }

  /** The id at a position between `first` and `end`. */
  idAt(position: number): number {
    return this.ids.data[position - this.offset] as number;
  }

  /**
   * Where a replay after `lastEventId` starts: the first entry with a
   * greater id that was indexed within `maxAgeMs` of now (`end` when there
   * is none, or when the id is not a number). An id the journal does not
   * know (an old fixture article, an id trimmed away) counts by value: ids
   * grow in indexing order, and so do the times.
   */
  positionAfter(lastEventId: string, maxAgeMs: number): number {
    const id = Number(lastEventId);
    if (Number.isNaN(id)) return this.end;
    const since = this.clock.nowMs() - maxAgeMs;
    const byId = this.firstIndex((i) => (this.ids.data[i] as number) > id);
    const byTime = this.firstIndex((i) => (this.times.data[i] as number) >= since);
    return this.offset + Math.max(byId, byTime);
  }

  /** The first kept index where `above` holds (it holds from there on), or the length. */
  private firstIndex(above: (index: number) => boolean): number {
    let lo = this.head;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (above(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /**
   * Ids of the articles indexed after `lastEventId` and within `maxAgeMs` of
   * now, oldest first (see `positionAfter`).
   */
  after(lastEventId: string, maxAgeMs: number): number[] {
    return this.since(this.positionAfter(lastEventId, maxAgeMs));
  }

  /** Ids of the articles indexed at or after position `position` (from `end`). */
  since(position: number): number[] {
    const from = Math.max(this.head, position - this.offset);
    return Array.from(this.ids.data.subarray(from, this.ids.length));
  }

  close(): void {
    this.unsubscribe();
  }
}
