/**
 * Conformance over HTTP, part 2: search semantics and the behaviour rules for
 * filters (spec, Search and "Behaviour rules for filters"), on the committed
 * fixtures. The engine's own tests (search-*.test.ts) pin the details on a
 * hand-made corpus; these prove the same rules hold through the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../../src/mock/fixtures/types.js';
import type { MockServer } from '../../src/mock/server.js';
import { categorySlug } from '../../src/mock/search/row.js';
import { SORT_BY } from '../../src/params/search-values.js';
import { NOW, PRO, api, ids, page, search, startConformanceServer } from './conformance-server.js';

let server: MockServer;
let sample: Article;
beforeAll(async () => {
  server = await startConformanceServer();
  sample = server.store.articles.find((a) => a.entities.length > 0 && a.categories.length > 0)!;
});
afterAll(() => server.close());

const DAY = 86_400_000;
const count = async (filters: Record<string, unknown>): Promise<number> => {
  const r = await api(server, 'POST', '/v1/news/count', { key: PRO, body: filters });
  expect(r.status, r.text).toBe(200);
  return (r.json as { count: number }).count;
};
const all = async (filters: Record<string, unknown>): Promise<Article[]> =>
  page(await search(server, { per_page: 250, ...filters })).results;

describe('every filter filters', () => {
  const filters = (): [name: string, value: unknown, holds: (a: Article) => boolean][] => [
    ['language.code', 'de', (a) => a.language === 'de'],
    ['ignore.language.code', 'en', (a) => a.language !== 'en'],
    [
      'source.country.code',
      sample.source.location.country_code,
      (a) => a.source.location.country_code === sample.source.location.country_code,
    ],
    ['sentiment.overall.polarity', 'negative', (a) => a.sentiment.overall.polarity === 'negative'],
    [
      'category.id',
      categorySlug(sample.categories[0]!.id),
      (a) => a.categories.some((c) => c.id === sample.categories[0]!.id),
    ],
    [
      'entity.id',
      String(sample.entities[0]!.id),
      (a) => a.entities.some((e) => e.id === sample.entities[0]!.id),
    ],
    ['is_breaking', 1, (a) => a.is_breaking],
    ['read_time.max', 2, (a) => a.read_time <= 2],
    ['source.rank.opr.min', 7, (a) => a.source.rankings.opr >= 7],
    [
      'published_at.start',
      new Date(NOW.getTime() - 3 * DAY).toISOString(),
      (a) => Date.parse(a.published_at) >= NOW.getTime() - 3 * DAY,
    ],
  ];

  it('narrows the answer to articles that satisfy the filter', async () => {
    const everything = await count({});
    for (const [name, value, holds] of filters()) {
      const n = await count({ [name]: value });
      expect(n, name).toBeGreaterThan(0);
      expect(n, name).toBeLessThan(everything);
      const results = await all({ [name]: value });
      expect(results.length, name).toBe(Math.min(n, 250));
      for (const a of results)
        expect(holds(a), `${name}=${String(value)}: article ${a.id}`).toBe(true);
    }
  });

  it('combines filters with AND', async () => {
    const results = await all({ 'language.code': 'en', 'sentiment.overall.polarity': 'positive' });
    expect(results.length).toBeGreaterThan(0);
    for (const a of results)
      expect([a.language, a.sentiment.overall.polarity]).toEqual(['en', 'positive']);
  });
});

describe('sorting', () => {
  const keys: Partial<Record<(typeof SORT_BY)[number], (a: Article) => number>> = {
    published_at: (a) => Date.parse(a.published_at),
    id: (a) => a.id,
    read_time: (a) => a.read_time,
    'source.rank.opr': (a) => a.source.rankings.opr,
    'sentiment.overall.score': (a) => a.sentiment.overall.score,
    'shares.facebook.max': (a) => a.shares.facebook,
    engagement: (a) => a.shares.facebook + a.shares.twitter + a.shares.reddit,
  };

  it('takes every sort.by with both orders; field sorts are monotonic', async () => {
    for (const by of SORT_BY) {
      for (const order of ['asc', 'desc'] as const) {
        const results = page(
          await search(server, { 'sort.by': by, 'sort.order': order, per_page: 30 }),
        ).results;
        expect(results.length, by).toBe(30);
        const key = keys[by];
        if (key === undefined) continue;
        const values = results.map(key);
        const sorted = [...values].sort((x, y) => (order === 'asc' ? x - y : y - x));
        expect(values, `${by} ${order}`).toEqual(sorted);
      }
    }
  });

  it('defaults to published_at descending', async () => {
    expect(ids(await search(server, { per_page: 20 }))).toEqual(
      ids(await search(server, { per_page: 20, 'sort.by': 'published_at', 'sort.order': 'desc' })),
    );
  });
});

describe('paging', () => {
  it('pages without overlap and links the next page', async () => {
    const first = page(await search(server, { per_page: 10 }));
    const second = page(await search(server, { per_page: 10, page: 2 }));
    expect(first.has_next_pages).toBe(true);
    expect(second.page).toBe(2);
    expect(first.results.map((a) => a.id)).not.toEqual(
      expect.arrayContaining([second.results[0]!.id]),
    );
    const next = new URL(first.next_page);
    const followed = await api(server, 'GET', `${next.pathname}${next.search}`, { key: PRO });
    expect(ids(followed)).toEqual(second.results.map((a) => a.id));
    const both = page(await search(server, { per_page: 20 })).results.map((a) => a.id);
    expect(both).toEqual([...first.results, ...second.results].map((a) => a.id));
  });

  it('has no next page on the last one', async () => {
    const n = await count({ 'language.code': 'nl' });
    const last = page(await search(server, { 'language.code': 'nl', per_page: n }));
    expect(last.results.length).toBe(n);
    expect(last.has_next_pages).toBe(false);
    expect(last.next_page).toBe('');
  });
});

describe('text, query and prompt', () => {
  it('highlights the searched words', async () => {
    const word = sample.title.split(/\s+/).find((w) => /^\p{L}{5,}$/u.test(w))!;
    const r = page(await search(server, { title: word, hl: 1, per_page: 5 }));
    expect(r.results.length).toBeGreaterThan(0);
    const fragments = Object.values(r.highlighting ?? {}).flatMap((h) => h['title'] ?? []);
    expect(fragments.length).toBeGreaterThan(0);
    for (const f of fragments) expect(f.toLowerCase()).toContain(`<em>${word.toLowerCase()}</em>`);
  });

  it('computes facets over every match', async () => {
    const r = page(
      await search(server, { 'facet.field': 'sentiment.overall.polarity', per_page: 1 }),
    );
    const buckets = r.facets?.['sentiment.overall.polarity'] ?? [];
    expect(buckets.length).toBeGreaterThan(1);
    expect(buckets.reduce((s, b) => s + b.count, 0)).toBe(await count({}));
  });

  it('finds a title phrase with proximity, and not with less', async () => {
    const recent = server.store.articles.filter(
      (a) => Date.parse(a.published_at) > NOW.getTime() - 20 * DAY,
    );
    const words = (a: Article) => a.title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const target = recent.find(
      (a) => words(a).length >= 4 && new Set(words(a)).size === words(a).length,
    )!;
    const [w0, , w2] = words(target);
    const near = await all({ title: `"${w0} ${w2}"~1` });
    expect(near.map((a) => a.id)).toContain(target.id);
    const exact = await all({ title: `"${w0} ${w2}"` });
    expect(exact.map((a) => a.id)).not.toContain(target.id);
  });

  it('keeps title searches inside the last 31 days', async () => {
    const r = page(
      await search(server, {
        title: 'the',
        per_page: 250,
        'sort.by': 'published_at',
        'sort.order': 'asc',
      }),
    );
    expect(r.results.length).toBeGreaterThan(0);
    expect(Date.parse(r.results[0]!.published_at)).toBeGreaterThanOrEqual(NOW.getTime() - 31 * DAY);
    expect(r.meta?.warnings?.[0]?.code).toBe('ER0366');
  });

  it('runs a boolean query', async () => {
    const results = await all({
      query: '(language.code:de OR language.code:fr) AND NOT sentiment.overall.polarity:negative',
    });
    expect(results.length).toBeGreaterThan(0);
    for (const a of results) {
      expect(['de', 'fr']).toContain(a.language);
      expect(a.sentiment.overall.polarity).not.toBe('negative');
    }
  });

  it('turns a prompt into filters reported in meta.prompt; explicit parameters win', async () => {
    const r = page(await search(server, { prompt: 'negative news in German', per_page: 50 }));
    expect(r.meta?.prompt?.applied).toMatchObject({ 'language.code': 'de' });
    for (const a of r.results) expect(a.language).toBe('de');
    const explicit = page(
      await search(server, {
        prompt: 'negative news in German',
        'language.code': 'fr',
        per_page: 50,
      }),
    );
    for (const a of explicit.results) expect(a.language).toBe('fr');
  });
});

describe('behaviour rules for filters', () => {
  const same = async (a: Record<string, unknown>, b: Record<string, unknown>) =>
    expect(ids(await search(server, { per_page: 100, ...a }))).toEqual(
      ids(await search(server, { per_page: 100, ...b })),
    );

  it('ignores unknown parameter names', async () => {
    await same(
      { 'no.such.parameter': 'x', colour: 'red', 'language.code': 'de' },
      { 'language.code': 'de' },
    );
  });

  it('does not apply invalid values, and answers 200', async () => {
    await same(
      { 'sentiment.overall.polarity': 'purple', 'language.code': 'de' },
      { 'language.code': 'de' },
    );
    await same({ 'read_time.max': 'abc' }, {});
    await same({ is_breaking: 7 }, {});
    await same({ 'sort.by': 'colour' }, {});
  });

  it('drops the fourth and later values of a list', async () => {
    await same({ 'language.code': 'de,fr,it,en' }, { 'language.code': 'de,fr,it' });
    await same(
      { 'language.code': ['de', 'fr', 'it', 'en', 'es'] },
      { 'language.code': 'de,fr,it' },
    );
  });

  it('drops a flat filter holding a wildcard', async () => {
    await same({ 'source.domain': '*.com', 'language.code': 'de' }, { 'language.code': 'de' });
  });

  it('caps per_page at the plan ceiling silently', async () => {
    const r = page(await search(server, { per_page: 100 }, 'api_live_mock_free'));
    expect([r.limit, r.results.length]).toEqual([10, 10]);
  });
});
