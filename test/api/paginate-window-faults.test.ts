/**
 * Pages in parallel (src/api/paging/page-window.ts) under faults, budgets and
 * stops: retries and back-off, memory bounded by the pages in flight, a loop
 * left early (split from paginate-window.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { FakeNews } from './helpers/fake-news.js';
import {
  SEARCH,
  clientFor,
  collect,
  countsOf,
  newestFirstIds,
  pageNumber,
} from './helpers/page-run.js';

describe('faults, budgets and stops', () => {
  it('through injected 429s and 500s: the fault-free records, and the window backs off', async () => {
    const quiet = await collect(FakeNews.seeded(500));
    const fake = FakeNews.seeded(500);
    fake.latency = () => 3;
    fake.fault = (seq) =>
      seq % 7 === 0
        ? { status: 429, headers: { 'retry-after': '0' } }
        : seq % 11 === 0
          ? { status: 500 }
          : undefined;
    const run = await collect(fake);
    expect(run.ids).toEqual(quiet.ids);
    const backoffs = run.events.filter((e) => e.kind === 'back-off');
    expect(backoffs.length).toBeGreaterThan(0);
    expect(backoffs[0]).toMatchObject({ status: 429 });
  });

  it('the rate-limit headers cap the pages in flight', async () => {
    const fake = FakeNews.seeded(300);
    fake.latency = () => 5;
    fake.rateLimit = () => ({ limit: 300, remaining: 35, reset: 60 });
    const run = await collect(fake);
    expect(run.ids).toEqual(newestFirstIds(300));
    // A tenth of the 35 left: three at once.
    expect(fake.maxInFlight).toBe(3);
    // Within the last tenth of the window the client paces: one at a time.
    const paced = FakeNews.seeded(300);
    paced.latency = () => 5;
    paced.rateLimit = () => ({ limit: 300, remaining: 25, reset: 1 });
    expect((await collect(paced)).ids).toEqual(newestFirstIds(300));
    expect(paced.maxInFlight).toBe(1);
  });

  it('maxRequests: nothing is sent past it, prefetch, probes and counts included', async () => {
    for (const max of [2, 5, 9, 20]) {
      const fake = FakeNews.seeded(500);
      const run = await collect(fake, { maxRequests: max });
      expect(fake.sent.length).toBeLessThanOrEqual(max);
      expect(run.events.some((e) => e.kind === 'capped')).toBe(true);
      expect(run.ids).toEqual(newestFirstIds(500).slice(0, run.ids.length));
    }
  });

  it('under a budget, a window that costs requests opens only when the expected pages leave room', async () => {
    // 500 records, 50 pages: a budget of 50 has no room for the two counts; 52 has.
    const tight = FakeNews.seeded(500);
    const a = await collect(tight, { maxRequests: 50, expected: 500 });
    expect(a.ids).toEqual(newestFirstIds(500));
    expect(countsOf(tight.sent)).toHaveLength(0);
    expect(tight.maxInFlight).toBe(1);
    const room = FakeNews.seeded(500);
    const b = await collect(room, { maxRequests: 52, expected: 500 });
    expect(b.ids).toEqual(newestFirstIds(500));
    expect(countsOf(room.sent)).toHaveLength(2);
    expect(room.sent.length).toBeLessThanOrEqual(52);
    expect(b.events.some((e) => e.kind === 'capped')).toBe(false);
    // Without an expectation, a budgeted run does not spend on a window's counts.
    const blind = FakeNews.seeded(500);
    expect((await collect(blind, { maxRequests: 80 })).ids).toHaveLength(500);
    expect(countsOf(blind.sent)).toHaveLength(0);
  });

  it('a failed page fails the run after the pages before it were handed over', async () => {
    const fake = FakeNews.seeded(300);
    fake.latency = (seq) => (pageNumber(fake, seq) === 9 ? 1 : 8);
    fake.fault = (_seq, sent) => (sent.body['page'] === 9 ? { status: 400 } : undefined);
    const pages: number[] = [];
    const client = clientFor(fake);
    const iterate = async (): Promise<void> => {
      for await (const page of client.paginate(SEARCH, { perPage: 10 })) pages.push(page.page);
    };
    await expect(iterate()).rejects.toMatchObject({ status: 400 });
    expect(pages).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('the last page the caller wants ends the run and aborts what was asked past it', async () => {
    const fake = FakeNews.seeded(500);
    fake.latency = () => 4;
    const run = await collect(fake, {
      lastPage: (records) => records.some((r) => (r['id'] as number) <= 300),
    });
    expect(run.ids).toEqual(newestFirstIds(500).slice(0, 210));
    await expect.poll(() => fake.inFlight, { timeout: 1000 }).toBe(0);
  });

  it('breaking out of the loop aborts every page in flight', async () => {
    const fake = FakeNews.seeded(500);
    fake.latency = () => 30;
    const client = clientFor(fake);
    for await (const page of client.paginate(SEARCH, { perPage: 10 })) {
      if (page.page === 6) break;
    }
    await expect.poll(() => fake.inFlight, { timeout: 1000 }).toBe(0);
  });
});
