/**
 * `--publish-rate N`: N new articles per minute of mock time, made by the
 * fixture generator and indexed like `POST /__mock/articles`, so streams and
 * webhooks have traffic without anyone posting. Runs on the mock clock
 * (`--time-scale` speeds it up). At high rates a tick publishes a batch: the
 * tick is never shorter than MIN_TICK_WALL_MS of wall time, and the articles
 * due since the last tick are published together, so the rate holds without a
 * timer per article. A tick publishes at most MAX_BATCH; a backlog drains
 * over the following ticks.
 *
 * The store keeps a published article's columns only: its JSON is made
 * again from the seed, its id and its time when a page shows it.
 */
import type { MockClock, MockTimer } from './clock.js';
import type { Article } from './fixtures/article-types.js';
import { LiveArticles } from './fixtures/generate.js';
import type { FixtureStore } from './store/fixture-store.js';
import { BODY } from './store/table.js';

const MINUTE_MS = 60_000;
const MIN_TICK_WALL_MS = 10;
/**
 * Most articles one tick publishes. When the event loop was blocked (another
 * mock loading its fixtures, a long search), the articles due pile up; they
 * are published over the next ticks instead of in one batch of thousands
 * that would block the loop again and flood every subscriber at once. Making
 * an article costs about half a millisecond, so a tick stays near 100 ms at
 * most and `/ping` is answered meanwhile; 250 a tick (every 10 ms) is still
 * eight times the 2,000 a second of the stream soak.
 */
const MAX_BATCH = 250;

export interface PublisherOptions {
  clock: MockClock;
  /** Articles per mock minute, > 0. */
  ratePerMinute: number;
  seed: number;
  /** Where they are indexed: the next id in indexing order is its newest + 1. */
  store: FixtureStore;
  /** Ids start after this one when it is past the store's newest (see MockAppOptions.publishAfterId). */
  afterId?: number | undefined;
  /** Told of each batch once it is indexed (the server announces it). */
  published(articles: Article[]): void;
}

export interface Publisher {
  /** How many articles it has published so far. */
  readonly published: number;
  stop(): void;
}

export function startPublisher(options: PublisherOptions): Publisher {
  const { clock, ratePerMinute, store } = options;
  if (!(ratePerMinute > 0) || !Number.isFinite(ratePerMinute)) {
    throw new RangeError(`publish rate must be a positive number, got ${ratePerMinute}`);
  }
  const live = new LiveArticles(options.seed);
  store.json.generate(BODY.published, (_ref, id, publishedMs) =>
    live.make(id, new Date(publishedMs)),
  );
  const perArticleMs = MINUTE_MS / ratePerMinute;
  const tickMs = Math.max(perArticleMs, MIN_TICK_WALL_MS / clock.timeScale);
  const startedMs = clock.nowMs();
  let published = 0;
  let timer: MockTimer | undefined;
  let stopped = false;

  const tick = (): void => {
    if (stopped) return;
    const due = Math.min(
      MAX_BATCH,
      Math.floor((clock.nowMs() - startedMs) / perArticleMs) - published,
    );
    if (due > 0) {
      const now = clock.now();
      let id = Math.max(store.newestId(), options.afterId ?? 0) + 1;
      const batch: Article[] = [];
      const rows: number[] = [];
      for (let i = 0; i < due; i++) {
        const article = live.make(id++, now);
        batch.push(article);
        rows.push(store.table.append(article, { kind: BODY.published, ref: 0 }));
      }
      store.indexed(rows);
      published += due;
      options.published(batch);
    }
    timer = clock.setTimeout(tick, tickMs);
  };
  timer = clock.setTimeout(tick, tickMs);

  return {
    get published() {
      return published;
    },
    stop() {
      stopped = true;
      timer?.cancel();
    },
  };
}
