/**
 * Budget: a search with five filters over 100,000 articles answers in under
 * 20 ms at the median (the mock must keep up with a CLI paging through it).
 * The store grows with the fixture generator, so the data has the real shape.
 */
import { bench, describe } from 'vitest';
import { loadFixtures } from '../src/mock/fixtures/load.js';
import { createSearchEngine } from '../src/mock/search/index.js';
import type { SearchContext } from '../src/mock/search/types.js';

const now = new Date('2025-06-01T12:00:00.000Z');
const store = loadFixtures({ now, articles: 100_000 });
const engine = createSearchEngine(store);
const ctx: SearchContext = {
  now,
  mode: 'live',
  plan: 'Professional',
  perPageCap: 250,
  path: '/v1/news/everything',
  requestId: 'bench',
  baseUrl: 'http://127.0.0.1:4010',
};

const FIVE_FILTERS = {
  'language.code': 'en',
  has_image: 1,
  'source.rank.opr.min': 3,
  'sentiment.overall.score.min': -0.5,
  'read_time.max': 10,
};

describe(`search over ${store.articles.length} articles (budget: 20 ms median)`, () => {
  bench('five filters, newest first', () => {
    engine.everything(FIVE_FILTERS, ctx);
  });
  bench('five filters, sorted by engagement', () => {
    engine.everything({ ...FIVE_FILTERS, 'sort.by': 'engagement' }, ctx);
  });
  bench('title search in the 31-day window', () => {
    engine.everything({ title: 'market' }, ctx);
  });
  bench('boolean query', () => {
    engine.everything({ query: '(climate OR inflation) AND NOT language.code:de' }, ctx);
  });
  bench('count with five filters', () => {
    engine.count(FIVE_FILTERS, ctx);
  });
});
