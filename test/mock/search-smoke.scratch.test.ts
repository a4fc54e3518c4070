import { test } from 'vitest';
import { loadFixtures } from '../../src/mock/fixtures/load.js';
import { createSearchEngine } from '../../src/mock/search/index.js';

test('smoke', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  const t0 = Date.now();
  const store = loadFixtures({ now });
  console.log('load', Date.now() - t0, store.articles.length);
  const t1 = Date.now();
  const engine = createSearchEngine(store);
  console.log('index', Date.now() - t1);
  const ctx = {
    now,
    mode: 'live' as const,
    plan: 'Professional' as const,
    perPageCap: 250,
    path: '/v1/news/everything',
    requestId: 'r1',
    baseUrl: 'http://x',
  };
  const r = engine.everything(
    {
      'language.code': 'en',
      per_page: 2,
      facet: '1',
      'facet.field': 'source.id,category.id',
      hl: 1,
      title: 'market',
    },
    ctx,
  );
  console.log(
    JSON.stringify(
      {
        ...r.body,
        results: (r.body['results'] as { id: number; title: string }[]).map((a) => [a.id, a.title]),
      },
      null,
      1,
    ).slice(0, 3000),
  );
  console.log(
    JSON.stringify(
      engine.count({ prompt: 'Elon Musk, Tesla, news for the last 10 days' }, ctx).body,
    ),
  );
  console.log(
    JSON.stringify(engine.trends({ field: 'entity.id', per_page: 3 }, ctx).body).slice(0, 1500),
  );
  console.log(
    store.suggest.entities
      .slice(0, 30)
      .map((e) => `${e.type}:${e.name}`)
      .join(' | '),
  );
  console.log(JSON.stringify(store.articles[0]).slice(0, 3000));
});
