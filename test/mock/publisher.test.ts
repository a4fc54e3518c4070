import { afterEach, describe, expect, it } from 'vitest';
import type { Article } from '../../src/mock/fixtures/types.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { expectSchema } from './search-schema.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const open: MockServer[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

/** A mock on the committed fixtures publishing `rate` articles per mock minute; what it announced. */
async function publishing(rate: number, timeScale: number, publishAfterId?: number) {
  const server = await startMockServer({
    quiet: true,
    now: NOW,
    publishRate: rate,
    timeScale,
    ...(publishAfterId === undefined ? {} : { publishAfterId }),
  });
  open.push(server);
  const seen: Article[] = [];
  server.articles.subscribe((batch) => {
    for (const article of batch) seen.push(article);
  });
  return { server, seen };
}

async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('mock --publish-rate', () => {
  it('publishes new articles on the mock clock, with the next ids in indexing order, searchable at once', async () => {
    // 600 per mock minute at 0.01: a mock minute lasts 0.6 s, so about 1,000 articles a second.
    const { server, seen } = await publishing(600, 0.01);
    const newestBefore = server.store.newestId();
    await until(() => seen.length >= 200);
    const ids = seen.map((a) => a.id);
    expect(ids[0]).toBe(newestBefore + 1);
    expect(ids).toEqual(ids.map((_, i) => newestBefore + 1 + i));
    const mockNow = server.clock.nowMs();
    for (const article of seen) {
      const published = Date.parse(article.published_at);
      expect(published).toBeGreaterThan(NOW.getTime());
      expect(published).toBeLessThanOrEqual(mockNow);
    }
    // Never ahead of the rate on the mock clock.
    const elapsedMockMinutes = (mockNow - NOW.getTime()) / 60_000;
    expect(seen.length).toBeLessThanOrEqual(Math.ceil(elapsedMockMinutes * 600) + 1);

    const response = await fetch(`${server.url}/v1/news/everything`, {
      method: 'POST',
      headers: { 'x-api-key': 'api_live_mock_pro', 'content-type': 'application/json' },
      body: JSON.stringify({ per_page: 3, 'sort.by': 'published_at' }),
    });
    const body = (await response.json()) as { results: Article[] };
    expectSchema('/v1/news/everything', body);
    expect(body.results.every((a) => a.id > newestBefore)).toBe(true);
  });

  it('publishes the same articles for the same seed', async () => {
    const a = await publishing(6000, 0.01);
    const b = await publishing(6000, 0.01);
    await until(() => a.seen.length >= 50 && b.seen.length >= 50);
    const titles = (seen: Article[]) => seen.slice(0, 50).map((x) => [x.id, x.title, x.source.id]);
    expect(titles(a.seen)).toEqual(titles(b.seen));
  });

  it('goes on after publishAfterId when it is past the newest', async () => {
    const probe = await publishing(0, 1);
    const newest = probe.server.store.newestId();
    const { server, seen } = await publishing(6000, 0.01, newest + 1000);
    await until(() => seen.length >= 5);
    expect(seen.slice(0, 5).map((a) => a.id)).toEqual(
      [1, 2, 3, 4, 5].map((i) => newest + 1000 + i),
    );
    expect(server.store.newestId()).toBeGreaterThanOrEqual(newest + 1005);
    // One below the newest changes nothing: the fixtures' newest wins.
    const below = await publishing(6000, 0.01, newest - 1);
    await until(() => below.seen.length >= 1);
    expect(below.seen[0]!.id).toBe(newest + 1);
  });

  it('publishes nothing without a rate', async () => {
    const { seen } = await publishing(0, 0.001);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([]);
  });
});
