/**
 * A mock left running holds bounded memory: published articles past a cap
 * leave the index (the table is rebuilt without them now and then), the
 * stream journal keeps ids and times within its window, the delivery log its
 * newest attempts. And the data is the same whenever a mock starts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ArticleBus } from '../../src/mock/article-bus.js';
import { createClock } from '../../src/mock/clock.js';
import { type DeliveryAttempt, DeliveryLog } from '../../src/mock/delivery-log.js';
import type { Article } from '../../src/mock/fixtures/types.js';
import { LiveArticles } from '../../src/mock/fixtures/generate.js';
import { PublishedCap } from '../../src/mock/published-cap.js';
import { createSearchEngine } from '../../src/mock/search/index.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { loadFixtures } from '../../src/mock/store/load.js';
import { BODY } from '../../src/mock/store/table.js';
import { StreamJournal } from '../../src/mock/stream-journal.js';
import { ctx } from './search-fixture.js';

const NOW = new Date('2026-03-15T12:00:00.000Z');
const open: MockServer[] = [];
afterAll(async () => {
  for (const s of open) await s.close();
});

describe('published articles past the cap', () => {
  it('leave the index oldest first, with one note, and the engine answers over the rest', async () => {
    const store = await loadFixtures({ now: NOW });
    const notes: string[] = [];
    const cap = new PublishedCap(store, (line) => notes.push(line), 50, 30);
    const engine = createSearchEngine(store);
    const live = new LiveArticles(store.seed);
    // As the publisher does: their JSON is made again from the seed when shown.
    store.json.generate(BODY.published, (_ref, id, ms) => live.make(id, new Date(ms)));
    const base = store.size;
    const published: Article[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const articles: Article[] = [];
      const rows: number[] = [];
      for (let i = 0; i < 10; i++) {
        const a = live.make(
          store.newestId() + 1 + i,
          new Date(NOW.getTime() + published.length * 1000 + i),
        );
        articles.push(a);
        rows.push(store.table.append(a, { kind: BODY.published, ref: 0 }));
      }
      store.indexed(rows);
      cap.published(articles);
      published.push(...articles);
    }
    // 120 published, 50 kept: the newest.
    expect(store.size).toBe(base + 50);
    for (const a of published.slice(0, 70)) expect(store.article(a.id)).toBeUndefined();
    for (const a of published.slice(70)) expect(store.article(a.id)?.title).toBe(a.title);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/keeps the newest 50 published articles/);
    // 70 dropped with 30 the threshold: the table was compacted (in place).
    expect(store.table.generation).toBeGreaterThan(0);
    expect(store.table.dropped).toBeLessThan(30);
    const body = engine.everything(
      { 'sort.by': 'id', per_page: 60 },
      ctx({ now: new Date(NOW.getTime() + 200_000) }),
    ).body;
    const ids = (body['results'] as { id: number }[]).map((r) => r.id);
    expect(ids.slice(0, 50)).toEqual(
      published
        .slice(70)
        .map((a) => a.id)
        .reverse(),
    );
    expect(engine.count({}, ctx({ now: new Date(NOW.getTime() + 200_000) })).body['count']).toBe(
      base + 50,
    );
  });
});

describe('the stream journal', () => {
  it('keeps ids and times, trims by age and count, and replays by id', () => {
    const clock = createClock({ now: NOW, timeScale: 1e9 });
    const bus = new ArticleBus();
    const journal = new StreamJournal(clock, bus, 60_000, () => undefined, 5);
    const at = (id: number) => ({ id }) as Article;
    bus.publish([at(10), at(11), at(12)]);
    const position = journal.end;
    bus.publish([at(13), at(14), at(15), at(16)]);
    // At most 5 kept: 10 and 11 are gone.
    expect(journal.after('0', 60_000)).toEqual([12, 13, 14, 15, 16]);
    expect(journal.after('13', 60_000)).toEqual([14, 15, 16]);
    // An id it never saw counts by value.
    expect(journal.after('13.5', 60_000)).toEqual([14, 15, 16]);
    expect(journal.after('not-an-id', 60_000)).toEqual([]);
    expect(journal.since(position)).toEqual([13, 14, 15, 16]);
    journal.close();
    clock.dispose();
  });
});

describe('the delivery log', () => {
  it('keeps the newest attempts', () => {
    const log = new DeliveryLog(3);
    const attempt = (n: number): DeliveryAttempt => ({
      delivery_id: `d${n}`,
      webhook_id: n % 2,
      attempt: 1,
      sent_at: NOW.toISOString(),
      status: 200,
      outcome: 'delivered',
      error: null,
      duration_ms: 1,
      article_ids: [n],
      next_attempt_at: null,
      points: 0,
    });
    for (let n = 0; n < 10; n++) log.record(attempt(n));
    expect(log.size).toBe(3);
    expect(log.list().map((e) => e.delivery_id)).toEqual(['d7', 'd8', 'd9']);
    expect(log.list(1).map((e) => e.delivery_id)).toEqual(['d7', 'd9']);
  });
});

describe('the same data every time', () => {
  it('anchors the fixtures at --now, never at a later reading of the clock', async () => {
    // A clock a million times faster than the wall: a microsecond between
    // starting it and reading it again would be a second of fixture time.
    const a = await startMockServer({ quiet: true, now: NOW, timeScale: 1e-6 });
    open.push(a);
    expect(a.store.now.getTime()).toBe(NOW.getTime());
    const b = await startMockServer({ quiet: true, now: NOW, timeScale: 1e-6 });
    open.push(b);
    expect(b.store.articles.slice(0, 50)).toEqual(a.store.articles.slice(0, 50));
  });
});
