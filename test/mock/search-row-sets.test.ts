/**
 * Filters kept as bitmaps between requests (src/mock/search/row-sets.ts):
 * the engine keeps a filter value from its second request on, so the same
 * search asked again must find exactly what it found the first time, by
 * predicate, and what a fresh engine finds; also after rows are appended.
 */
import { describe, expect, it } from 'vitest';
import { createSearchEngine } from '../../src/mock/search/index.js';
import { RowSets, hasRow, intersect } from '../../src/mock/search/row-sets.js';
import { loadFixtures } from '../../src/mock/store/load.js';
import { ArticleTable } from '../../src/mock/store/table.js';
import { ctx, ids } from './search-fixture.js';

const NOW = new Date('2026-03-15T12:00:00.000Z');
const day = (d: number): string => new Date(NOW.getTime() - d * 86_400_000).toISOString();

/** Five-filter searches and single filters of every kind a bitmap may stand for. */
const SEARCHES: Record<string, unknown>[] = [
  { 'language.code': 'en', 'sentiment.overall.polarity': 'positive', 'source.country.code': 'us' },
  {
    'language.code': 'en',
    'published_at.start': day(25),
    'published_at.end': day(2),
    'category.id': 'medtop:04000000',
    'sentiment.overall.polarity': 'negative',
    title: 'rates',
  },
  { 'topic.id': 'economy.interest-rates,politics.elections', 'ignore.language.code': 'de' },
  { title: '"interest rates"', 'source.country.code': 'gb,us' },
  { 'ignore.title': 'bank', is_breaking: 0, 'sentiment.overall.score.min': -0.2 },
  { 'person.name': 'Putin', has_image: 1 },
  { 'ignore.topic.id': 'economy.markets', 'read_time.max': 3, 'language.code': 'es,fr' },
  { title_starts_with: 'the', 'source.rank.opr.min': 5 },
  {
    'category.id': 'medtop:11000000',
    'sort.by': 'shares.total',
    'sentiment.overall.polarity': 'neutral',
  },
];

const asked = (p: Record<string, unknown>) => ({ per_page: 250, ...p });

describe('filters kept as bitmaps', () => {
  it('answer a search asked again as it answered the first time, and as a fresh engine does', async () => {
    const store = await loadFixtures({ now: NOW, articles: 4000 });
    const engine = createSearchEngine(store);
    for (const p of SEARCHES) {
      const first = ids(engine.everything(asked(p), ctx({ now: NOW })).body);
      const count = engine.count(p, ctx({ now: NOW })).body['count'];
      // The second and third times read the bitmaps.
      for (let i = 0; i < 2; i++) {
        expect(ids(engine.everything(asked(p), ctx({ now: NOW })).body)).toEqual(first);
        expect(engine.count(p, ctx({ now: NOW })).body['count']).toEqual(count);
      }
      const fresh = createSearchEngine(store);
      expect(ids(fresh.everything(asked(p), ctx({ now: NOW })).body)).toEqual(first);
    }
    expect(
      SEARCHES.some((p) => ids(engine.everything(asked(p), ctx({ now: NOW })).body).length > 20),
    ).toBe(true);
  });

  it('cover rows appended after they were made', async () => {
    const store = await loadFixtures({ now: NOW });
    const engine = createSearchEngine(store);
    const p = { 'language.code': 'en', 'source.country.code': 'us', per_page: 250 };
    engine.everything(p, ctx({ now: NOW }));
    engine.everything(p, ctx({ now: NOW }));
    // Copies of English American articles, newer than any, with new ids.
    const copies = store.articles
      .filter((a) => a.language === 'en' && a.source.location?.country_code === 'US')
      .slice(0, 5)
      .map((a, i) => ({ ...a, id: 900_000_000 + i, published_at: day(0.001 * (i + 1)) }));
    store.add(copies);
    const after = ids(engine.everything(p, ctx({ now: NOW })).body);
    expect(after.slice(0, 5)).toEqual(copies.map((a) => a.id));
    expect(after).toEqual(ids(createSearchEngine(store).everything(p, ctx({ now: NOW })).body));
    // Rows appended oldest first, so the index holds them in falling row order.
    const older = copies.map((a, i) => ({
      ...a,
      id: 900_000_100 + i,
      published_at: day(1 - 0.01 * i),
    }));
    store.add(older);
    const count = (e: ReturnType<typeof createSearchEngine>) => e.count(p, ctx({ now: NOW })).body;
    const fresh = createSearchEngine(store);
    expect(ids(engine.everything(p, ctx({ now: NOW })).body)).toEqual(
      ids(fresh.everything(p, ctx({ now: NOW })).body),
    );
    expect(count(engine)).toEqual(count(createSearchEngine(store)));
  });
});

describe('RowSets', () => {
  const table = new ArticleTable();
  for (let i = 0; i < 70; i++) table.id.push(i);

  it('keeps a key from its second request on, every row evaluated', () => {
    const sets = new RowSets(table);
    const odd = (row: number) => row % 2 === 1;
    expect(sets.bitsOf('odd', () => odd)).toBeUndefined();
    const bits = sets.bitsOf('odd', () => odd) as Uint32Array;
    expect(Array.from({ length: 70 }, (_, r) => hasRow(bits, r))).toEqual(
      Array.from({ length: 70 }, (_, r) => odd(r)),
    );
  });

  it('intersects sets word by word', () => {
    const sets = new RowSets(table);
    const three = (row: number) => row % 3 === 0;
    const two = (row: number) => row % 2 === 0;
    sets.bitsOf('3', () => three);
    sets.bitsOf('2', () => two);
    const both = intersect(
      [sets.bitsOf('3', () => three)!, sets.bitsOf('2', () => two)!],
      70,
    ) as Uint32Array;
    expect(Array.from({ length: 70 }, (_, r) => hasRow(both, r))).toEqual(
      Array.from({ length: 70 }, (_, r) => r % 6 === 0),
    );
    expect(intersect([], 70)).toBeUndefined();
  });
});
