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
/**
 * The JSON text of the newest articles is kept too, up to this many bytes
 * (about 40,000 articles of 6 KB: 20 s at 2,000 a second), so a stream
 * catching up after an outage sends text already made: an article made
 * again from the store costs about a millisecond, which made a replay
 * slower than the live rate. Older articles are made again.
 */
export const JOURNAL_TEXT_BYTES = 256 * 1024 * 1024;

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
    private readonly maxTextBytes = JOURNAL_TEXT_BYTES,
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

  /** The JSON text (UTF-8) of the newest articles by position, oldest first (Map order). */
  private readonly texts = new Map<number, Buffer>();
  private textBytes = 0;

  private append(articles: readonly Article[]): void {
    const now = this.clock.nowMs();
    for (const article of articles) {
      const position = this.end;
      this.ids.push(article.id);
      this.times.push(now);
      this.newest = Math.max(this.newest, article.id);
      if (this.maxTextBytes > 0) {
        const text = Buffer.from(JSON.stringify(article));
        this.texts.set(position, text);
        this.textBytes += text.length;
      }
    }
    this.trim(now);
    // Oldest first: past the byte bound, or trimmed from the journal.
    for (const [position, text] of this.texts) {
      if (this.textBytes <= this.maxTextBytes && position >= this.first) break;
      this.texts.delete(position);
      this.textBytes -= text.length;
    }
  }

  /** The JSON text of the article at a position, when it is still kept (see JOURNAL_TEXT_BYTES). */
  textAt(position: number): string | undefined {
    return this.texts.get(position)?.toString('utf8');
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
