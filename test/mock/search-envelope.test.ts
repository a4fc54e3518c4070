import { describe, expect, it } from 'vitest';
import { SORT_BY } from '../../src/params/search-values.js';
import type { Article } from '../../src/mock/fixtures/types.js';
import { createSearchEngine } from '../../src/mock/search/index.js';
import { CORPUS, LATEST_FIRST } from './search-corpus.js';
import { article, ctx, hoursAgo, ids, image, makeStore } from './search-fixture.js';
import { expectSchema } from './search-schema.js';

const engine = createSearchEngine(makeStore(CORPUS));

describe('paging envelope', () => {
  const many = createSearchEngine(makeStore(Array.from({ length: 25 }, (_, i) => article(i + 1))));

  it('pages with page/per_page and says where the neighbours are', () => {
    const body = many.everything(
      { per_page: 10, page: 2, 'language.code': 'en', api_key: 'secret' },
      ctx(),
    ).body;
    expect(ids(body)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(body).toMatchObject({
      status: 'ok',
      limit: 10,
      page: 2,
      has_next_pages: true,
      has_previous_page: true,
    });
    expect(body['next_page']).toBe(
      'http://mock.test/v1/news/everything?per_page=10&language.code=en&page=3',
    );
    expect(body['previous_page']).toBe(
      'http://mock.test/v1/news/everything?per_page=10&language.code=en&page=1',
    );
    expect(body['path']).toBe(
      'http://mock.test/v1/news/everything?per_page=10&language.code=en&page=2',
    );
    expect(body['request_id']).toBe('req_test');
    expect(String(body['next_page'])).not.toContain('secret');
    expect((body['export'] as Record<string, string>)['csv']).toMatch(/&page=2&export=csv$/);
    expectSchema('/v1/news/everything', body);
  });

  it('has no next page on the last page and no previous one on the first', () => {
    const last = many.everything({ per_page: 10, page: 3 }, ctx()).body;
    expect(ids(last)).toEqual([21, 22, 23, 24, 25]);
    expect(last).toMatchObject({ has_next_pages: false, next_page: '', has_previous_page: true });
    const first = many.everything({ per_page: 25 }, ctx()).body;
    expect(first).toMatchObject({
      has_next_pages: false,
      next_page: '',
      has_previous_page: false,
      previous_page: '',
    });
  });

  it('answers an empty page past the end', () => {
    const body = many.everything({ per_page: 10, page: 9 }, ctx()).body;
    expect(ids(body)).toEqual([]);
    expect(body['has_next_pages']).toBe(false);
  });

  it('defaults to 100 per page and caps per_page at the plan ceiling silently', () => {
    expect(many.everything({}, ctx()).body['limit']).toBe(100);
    const free = many.everything({ per_page: 50 }, ctx({ perPageCap: 10 })).body;
    expect(free['limit']).toBe(10);
    expect(ids(free)).toHaveLength(10);
    expect(free['has_next_pages']).toBe(true);
    // Over the table's 250 the value is invalid, so the default (100) applies, then the cap.
    expect(many.everything({ per_page: 999 }, ctx({ perPageCap: 50 })).body['limit']).toBe(50);
  });

  it('echoes the request in user_input with debug=1, without the key', () => {
    const body = engine.everything({ 'source.id': 2, debug: '1', api_key: 'secret' }, ctx()).body;
    expect(body['user_input']).toEqual({ 'source.id': 2, debug: '1' });
    expect(engine.everything({ 'source.id': 2 }, ctx()).body['user_input']).toBeUndefined();
  });

  it('echoes GET and POST parameters alike', () => {
    const a = engine.everything({ 'source.id': 2, per_page: '5' }, ctx()).body;
    const b = engine.everything({ 'source.id': '2', per_page: 5 }, ctx()).body;
    expect(a['next_page']).toBe(b['next_page']);
    expect(ids(a)).toEqual(ids(b));
  });
});

describe('sorting', () => {
  const widths: Article[] = [
    article(1, {
      media: [image(500, 400), image(900, 300)],
      shares: { total: 3, facebook: 3, twitter: 0, reddit: 0 },
    }),
    article(2, {
      media: [image(1500, 1000)],
      shares: { total: 1, facebook: 1, twitter: 0, reddit: 0 },
    }),
    article(3, { media: [], shares: { total: 2, facebook: 2, twitter: 0, reddit: 0 } }),
  ];
  const w = createSearchEngine(makeStore(widths));

  it('defaults to newest first', () => {
    expect(ids(engine.everything({}, ctx()).body)).toEqual(LATEST_FIRST);
    expect(ids(engine.everything({ 'sort.order': 'asc' }, ctx()).body)).toEqual(
      [...LATEST_FIRST].reverse(),
    );
  });

  it.each([
    ['id', 'desc', [6, 5, 4, 3, 2, 1]],
    ['id', 'asc', [1, 2, 3, 4, 5, 6]],
    ['source.rank.opr', 'desc', [2, 1, 4, 5, 3, 6]],
    ['sentiment.overall.score', 'desc', [6, 1, 3, 5, 2, 4]],
    ['sentiment.title.score', 'asc', [4, 2, 5, 3, 1, 6]],
    ['read_time', 'desc', [2, 5, 1, 6, 4, 3]],
    ['engagement', 'desc', [2, 4, 1, 3, 6, 5]],
    ['media.images.count', 'desc', [2, 5, 1, 4, 6, 3]],
    ['media.videos.count', 'desc', [2, 1, 3, 4, 6, 5]],
    ['shares.facebook.max', 'desc', [2, 4, 1, 3, 6, 5]],
    ['shares.twitter.min', 'asc', [3, 6, 5, 1, 4, 2]],
    ['media_richness', 'desc', [2, 5, 1, 4, 6, 3]],
  ] as const)('sort.by=%s %s', (by, order, want) => {
    expect(ids(engine.everything({ 'sort.by': by, 'sort.order': order }, ctx()).body)).toEqual(
      want,
    );
  });

  it('sorts image sizes by the smallest or the largest image, articles without images last', () => {
    const by = (key: string, order: string) =>
      ids(w.everything({ 'sort.by': key, 'sort.order': order }, ctx()).body);
    expect(by('media.images.width.max', 'desc')).toEqual([2, 1, 3]);
    expect(by('media.images.width.min', 'asc')).toEqual([1, 2, 3]);
    expect(by('media.images.height.min', 'desc')).toEqual([2, 1, 3]);
    expect(by('media.images.height.max', 'asc')).toEqual([1, 2, 3]);
  });

  it('ranks by relevance to the searched words', () => {
    const docs = [
      article(1, { title: 'Budget vote', published_at: hoursAgo(1) }),
      article(2, { title: 'Budget budget vote on the budget', published_at: hoursAgo(5) }),
      article(3, {
        title: 'Budget',
        description: 'The budget vote and the budget.',
        published_at: hoursAgo(3),
      }),
    ];
    const e = createSearchEngine(makeStore(docs));
    expect(ids(e.everything({ title: 'budget', 'sort.by': 'relevance' }, ctx()).body)).toEqual([
      2, 3, 1,
    ]);
  });

  it('answers every sort.by value with every article', () => {
    for (const by of SORT_BY) {
      expect(ids(engine.everything({ 'sort.by': by }, ctx()).body).sort()).toEqual([
        1, 2, 3, 4, 5, 6,
      ]);
    }
  });

  it('pages through a sorted answer exactly as the full sort orders it', () => {
    // Shares with many ties, so the tie-breaks matter too.
    const docs = Array.from({ length: 60 }, (_, i) =>
      article(i + 1, {
        shares: { total: 0, facebook: (i * 7) % 11, twitter: 0, reddit: 0 },
        published_at: hoursAgo((i * 5) % 13),
      }),
    );
    const e = createSearchEngine(makeStore(docs));
    for (const order of ['asc', 'desc']) {
      const full = ids(
        e.everything({ 'sort.by': 'engagement', 'sort.order': order, per_page: 100 }, ctx()).body,
      );
      const paged = [1, 2, 3, 4, 5, 6].flatMap((page) =>
        ids(
          e.everything({ 'sort.by': 'engagement', 'sort.order': order, per_page: 10, page }, ctx())
            .body,
        ),
      );
      expect(paged).toEqual(full);
      expect(new Set(full).size).toBe(60);
    }
  });

  it('ignores an unknown sort.by', () => {
    expect(ids(engine.everything({ 'sort.by': 'colour' }, ctx()).body)).toEqual(LATEST_FIRST);
  });
});
