/**
 * Pages in parallel (src/api/paging/page-window.ts): the same records in the same
 * order as one page after another, a window pinned against what the service
 * indexes meanwhile, a second pass when the window moved (faults, budgets
 * and stops: paginate-window-faults.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/api/sleep.js';
import type { RequestSpec } from '../../src/api/types.js';
import { FakeNews, seeded } from './helpers/fake-news.js';
import {
  NEWEST,
  type Run,
  SEARCH,
  clientFor,
  collect,
  countsOf,
  newestFirstIds,
  pageNumber,
  pagesOf,
} from './helpers/page-run.js';

describe('pages in parallel', () => {
  it('bring the same records in the same order as one page after another, several at once', async () => {
    const random = seeded(7);
    const one = FakeNews.seeded(400);
    one.latency = () => 1 + Math.floor(random() * 15);
    const sequential = await collect(one, { concurrency: 1 });
    const many = FakeNews.seeded(400);
    many.latency = () => 1 + Math.floor(random() * 15);
    const parallel = await collect(many);

    expect(sequential.ids).toEqual(newestFirstIds(400));
    expect(parallel.ids).toEqual(sequential.ids);
    expect(parallel.pages.map((p) => p.page)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(one.maxInFlight).toBe(1);
    expect(many.maxInFlight).toBeGreaterThanOrEqual(4);
    // The window opened after three pages, with a count of the pinned window, and closed with another.
    expect(parallel.events.find((e) => e.kind === 'window')).toMatchObject({
      concurrency: 4,
      adaptive: true,
      pin: { end: NEWEST },
      total: 400,
    });
    expect(countsOf(many.sent)).toHaveLength(2);
    // Nothing asked for past the end the count gave.
    expect(pagesOf(many.sent)).toHaveLength(40);
  });

  it('--concurrency N is the most in flight', async () => {
    const fake = FakeNews.seeded(300);
    fake.latency = () => 10;
    const run = await collect(fake, { concurrency: 2 });
    expect(run.ids).toEqual(newestFirstIds(300));
    expect(fake.maxInFlight).toBe(2);
  });

  it('hold at most the window beyond the page the consumer holds (memory bounded by it)', async () => {
    const fake = FakeNews.seeded(600);
    fake.latency = () => 1;
    const client = clientFor(fake);
    let ahead = 0;
    for await (const page of client.paginate(SEARCH, { perPage: 10 })) {
      const asked = Math.max(...pagesOf(fake.sent).map((s) => Number(s.body['page'])));
      ahead = Math.max(ahead, asked - page.page);
      // A slow consumer: the pages must wait for it, not pile up.
      await sleep(3);
    }
    expect(ahead).toBeGreaterThan(1);
    expect(ahead).toBeLessThanOrEqual(8);
  });

  it('a run of three pages or fewer costs nothing more than today', async () => {
    const fake = FakeNews.seeded(30);
    const run = await collect(fake);
    expect(run.ids).toEqual(newestFirstIds(30));
    expect(fake.sent).toHaveLength(3);
    expect(fake.maxInFlight).toBe(1);
  });
});

describe('a pinned window', () => {
  it('articles published while the run pages are not written, and nothing is lost or repeated', async () => {
    const fake = FakeNews.seeded(300);
    const random = seeded(3);
    fake.latency = () => 1 + Math.floor(random() * 20);
    let clock = Date.parse(NEWEST);
    // Every answer is computed after three more articles went in at the top.
    fake.beforeAnswer = () => {
      for (let i = 0; i < 3; i++) {
        clock += 1000;
        fake.publish(new Date(clock).toISOString());
      }
    };
    const run = await collect(fake);
    // What the first page saw (three more than the seed) is the run's list, each once.
    expect(run.ids).toEqual(newestFirstIds(303));
    // The end came from the first page, the service's own answer, not a local clock.
    for (const sent of pagesOf(fake.sent).slice(1)) {
      expect(sent.body['published_at.end']).toBe('2026-11-20T12:00:03.000Z');
    }
  });

  it('an article indexed late inside the window: the count moves and a second pass adds what was skipped', async () => {
    const fake = FakeNews.seeded(300);
    // Page 6 is answered long after page 7; an old-dated article indexed in
    // between shifts page 6 down by one: its last article moves to page 7,
    // which was already answered. The first pass misses it.
    fake.latency = (seq) => (pageNumber(fake, seq) === 6 ? 60 : 2);
    let inserted = false;
    fake.beforeAnswer = (_seq, sent) => {
      if (sent.body['page'] === 6 && sent.path === '/v1/news/everything' && !inserted) {
        inserted = true;
        fake.publish('2026-11-20T11:59:30.000Z');
      }
    };
    const run = await collect(fake);
    expect(run.events.find((e) => e.kind === 'moved')).toEqual({
      kind: 'moved',
      before: 300,
      after: 301,
    });
    const originals = run.ids.filter((id) => id <= 300);
    expect(new Set(originals).size).toBe(originals.length);
    expect([...originals].sort((a, b) => b - a)).toEqual(newestFirstIds(300));
    // The one the first pass skipped came from the second pass, after every first-pass page.
    const firstPass = run.pages.filter((p) => !p.rescan).length;
    expect(run.pages.slice(firstPass).every((p) => p.rescan)).toBe(true);
    expect(run.pages.some((p) => p.rescan)).toBe(true);
  });

  it('a second pass over a server that ignores `page` ends after the pages the window’s count fills', async () => {
    const fake = FakeNews.seeded(300);
    const warnings: string[] = [];
    let counts = 0;
    fake.beforeAnswer = (_seq, sent) => {
      if (sent.path === '/v1/news/count') counts += 1;
      // The window moves, then the server answers its first page whatever is asked.
      if (counts === 1 && sent.body['page'] === 8) fake.publish('2026-11-20T11:00:30.000Z');
    };
    fake.answerPage = (sent) => (counts >= 2 ? 1 : Number(sent.body['page']));
    const run = await collect(fake, { onWarning: (m) => warnings.push(m) });
    expect(run.events).toContainEqual({ kind: 'moved', before: 300, after: 301 });
    // 301 records fill 31 pages; ten more for a shift, then the pass stops.
    const second = pagesOf(fake.sent).filter((s) => s.seq > countsOf(fake.sent)[1]!.seq);
    expect(second).toHaveLength(41);
    expect(warnings).toEqual([
      "the second pass read 41 pages, more than the window's 301 records fill; stopped paging",
    ]);
  });

  it('a first pass cut short (a server going round in circles) is not counted again nor read twice', async () => {
    const fake = FakeNews.seeded(300);
    const warnings: string[] = [];
    // From page 5 on, the server answers its fifth page whatever is asked.
    fake.answerPage = (sent) => Math.min(5, Number(sent.body['page']));
    const run = await collect(fake, { onWarning: (m) => warnings.push(m) });
    expect(run.ids).toEqual(newestFirstIds(300).slice(0, 50));
    expect(warnings).toEqual([
      'pages 6 to 15 brought no record that was not already written; stopped paging',
    ]);
    expect(countsOf(fake.sent)).toHaveLength(1);
    expect(run.pages.some((p) => p.rescan)).toBe(false);
  });

  it('another order reads the end from a one-article probe sorted newest first', async () => {
    const fake = FakeNews.seeded(200);
    const run = await collect(
      fake,
      {},
      { ...SEARCH, body: { 'sort.by': 'id', 'sort.order': 'desc' } },
    );
    expect(run.ids).toEqual(newestFirstIds(200));
    const probe = fake.sent.find((s) => s.body['per_page'] === 1);
    expect(probe?.body).toMatchObject({ 'sort.by': 'published_at', 'sort.order': 'desc', page: 1 });
    // Pages after the third are pinned to the probe's answer.
    const pinnedPages = pagesOf(fake.sent).filter((s) => s.body['published_at.end'] === NEWEST);
    expect(pinnedPages.length).toBeGreaterThan(10);
    expect(
      pagesOf(fake.sent)
        .slice(0, 4)
        .every((s) => s.body['published_at.end'] === undefined),
    ).toBe(true);
  });

  it('a run that starts past page one does not take its first record for the newest', async () => {
    const fake = FakeNews.seeded(200);
    const run = await collect(fake, { startPage: 3 });
    expect(run.ids).toEqual(newestFirstIds(200).slice(20));
    expect(fake.sent.some((s) => s.body['per_page'] === 1)).toBe(true);
  });

  it('a title search without dates is pinned to the 31 days before the window’s end', async () => {
    const fake = FakeNews.seeded(100);
    await collect(fake, {}, SEARCH);
    const second = pagesOf(fake.sent)[1];
    expect(second?.body).toMatchObject({
      'published_at.end': NEWEST,
      'published_at.start': '2026-10-20T12:00:00.000Z',
    });
  });

  it('--resume’s pin is sent from the first page', async () => {
    const fake = FakeNews.seeded(100);
    const pin = { end: '2026-11-20T11:00:00.000Z' };
    const run = await collect(fake, { startPage: 2, pin });
    expect(pagesOf(fake.sent)[0]?.body['published_at.end']).toBe(pin.end);
    expect(run.ids[0]).toBe(100 - 60 - 10);
  });
});

/** A search in indexing order, newest first: what --state pages. */
const BY_ID: RequestSpec = {
  ...SEARCH,
  body: { title: 'x', 'sort.by': 'id', 'sort.order': 'desc' },
};

/**
 * What a --state watermark needs from a run: every article indexed at or
 * below the largest id it wrote was written (else the watermark passes over
 * it for good), each once, and nothing indexed after the run's first page.
 */
function expectWatermarkSafe(fake: FakeNews, run: Run, newest: number): void {
  expect(new Set(run.ids).size).toBe(run.ids.length);
  const top = Math.max(...run.ids);
  expect(top).toBeLessThanOrEqual(newest);
  const written = new Set(run.ids);
  const missed = fake.articles.filter((a) => a.id <= top && !written.has(a.id)).map((a) => a.id);
  expect(missed).toEqual([]);
}

describe('a list in indexing order (id, newest first: --state)', () => {
  // Articles go in at the top before every answer: the list shifts down by
  // one page (the page before comes again) or two between any two requests,
  // so pages repeat what earlier ones brought, and pages past the window's
  // end show articles indexed after page one.
  for (const perAnswer of [10, 20]) {
    it(`a busy list (${perAnswer} new per answer): pages of records already seen do not end the run, nothing indexed after page one is written`, async () => {
      const fake = FakeNews.seeded(300);
      fake.latency = () => 2;
      let clock = Date.parse(NEWEST);
      fake.beforeAnswer = () => {
        for (let i = 0; i < perAnswer; i++) {
          clock += 1000;
          fake.publish(new Date(clock).toISOString());
        }
      };
      const run = await collect(fake, {}, BY_ID);
      // Page one was answered after the first ones: its first record is the run's position.
      const newest = 300 + perAnswer;
      expect(run.ids).toEqual(newestFirstIds(newest));
      expectWatermarkSafe(fake, run, newest);
      expect(run.events).toContainEqual({ kind: 'newest', id: newest });
      expect(run.events.some((e) => e.kind === 'skipped' && e.repeated === 10)).toBe(true);
    });
  }

  it('a position given by the caller (a run over several windows) drops what is above it from page one', async () => {
    const fake = FakeNews.seeded(300);
    const run = await collect(fake, { newestId: 250 }, BY_ID);
    expect(run.ids).toEqual(newestFirstIds(250));
    expect(run.events.some((e) => e.kind === 'newest')).toBe(false);
    expect(run.events.filter((e) => e.kind === 'skipped')).toContainEqual({
      kind: 'skipped',
      page: 1,
      of: 10,
      repeated: 0,
      later: 10,
    });
  });

  it('other orders keep what was indexed after page one (the published_at pin decides)', async () => {
    const fake = FakeNews.seeded(100);
    fake.beforeAnswer = (_seq, sent) => {
      if (sent.body['page'] === 2) fake.publish('2026-11-20T11:00:30.000Z');
    };
    const run = await collect(fake, { newestId: 50 });
    expect(run.ids).toContain(101);
    expect(run.ids).toContain(100);
  });

  it('an article indexed late while the window is read: the second pass does not write past one never written', async () => {
    const fake = FakeNews.seeded(300);
    fake.latency = () => 2;
    let posted: { a: number; l: number } | undefined;
    fake.beforeAnswer = (_seq, sent) => {
      if (posted === undefined && sent.path === '/v1/news/everything' && sent.body['page'] === 6) {
        // A: an ordinary new article, published after the window's end (so outside it);
        // then L: indexed later still, with an old publication time (inside it).
        const a = fake.publish('2026-11-20T12:01:00.000Z').id;
        const l = fake.publish('2026-11-20T09:00:00.000Z').id;
        posted = { a, l };
      }
    };
    const run = await collect(fake, {}, BY_ID);
    expect(posted).toEqual({ a: 301, l: 302 });
    // The window's count moved (L): a second pass read it again.
    expect(run.events).toContainEqual({ kind: 'moved', before: 300, after: 301 });
    // Both belong to the next run, which finds them above the watermark (300).
    expect(run.ids).toEqual(newestFirstIds(300));
    expectWatermarkSafe(fake, run, 300);
  });
});

describe('lists that do not grow', () => {
  it('articles by id page at once from the second page, up to the ids asked for', async () => {
    const fake = FakeNews.seeded(100);
    const ids = Array.from({ length: 95 }, (_, i) => i + 1).join(',');
    const run = await collect(
      fake,
      {},
      { method: 'POST', path: '/v1/news/article', body: { id: ids } },
    );
    expect(run.ids).toHaveLength(100);
    expect(fake.maxInFlight).toBeGreaterThan(1);
    // Ten pages hold 95 ids: nothing asked for past the tenth.
    expect(Math.max(...fake.sent.map((s) => Number(s.body['page'])))).toBe(10);
    expect(countsOf(fake.sent)).toHaveLength(0);
  });
});
