/**
 * Budget: a search with five filters over 100,000 articles answers in under
 * 20 ms at the median (the mock must keep up with a CLI paging through it).
 * The store grows with the fixture generator, so the data has the real shape.
 * Vitest's table has no median column: the medians of 101 timed calls per
 * case are printed at the end, with the verdict.
 */
import { afterAll, bench, describe } from 'vitest';
import { createSearchEngine } from '../src/mock/search/index.js';
import type { SearchContext } from '../src/mock/search/types.js';
import { loadFixtures } from '../src/mock/store/load.js';

const now = new Date('2025-06-01T12:00:00.000Z');
const store = await loadFixtures({ now, articles: 100_000 });
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

const CASES: [name: string, run: () => void][] = [
  ['five filters, newest first', () => engine.everything(FIVE_FILTERS, ctx)],
  [
    'five filters, sorted by engagement',
    () => engine.everything({ ...FIVE_FILTERS, 'sort.by': 'engagement' }, ctx),
  ],
  ['title search in the 31-day window', () => engine.everything({ title: 'market' }, ctx)],
  [
    'boolean query',
    () => engine.everything({ query: '(climate OR inflation) AND NOT language.code:de' }, ctx),
  ],
  ['count with five filters', () => engine.count(FIVE_FILTERS, ctx)],
];

// Columns and postings are built on first use; build them (and let the JIT settle) before timing.
for (const [, run] of CASES) for (let i = 0; i < 5; i++) run();

afterAll(() => {
  for (const [name, run] of CASES) {
    const times: number[] = [];
    for (let i = 0; i < 101; i++) {
      const started = performance.now();
      run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const median = times[50] as number;
    console.log(
      `${name}: median ${median.toFixed(2)} ms (budget < 20 ms: ${median < 20 ? 'met' : 'MISSED'})`,
    );
  }
});

describe(`search over ${store.size} articles (budget: 20 ms median)`, () => {
  for (const [name, run] of CASES) bench(name, run);
});
