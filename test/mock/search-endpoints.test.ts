import { describe, expect, it } from 'vitest';
import type { Article } from '../../src/mock/fixtures/types.js';
import { createSearchEngine } from '../../src/mock/search/index.js';
import { TEST_MODE_MARKER, TEST_MODE_TREND_VALUE } from '../../src/mock/search/test-mode.js';
import { BETA, CORPUS, GAMMA, PARIS, TOKYO } from './search-corpus.js';
import { article, ctx, daysAgo, hoursAgo, ids, makeStore, source } from './search-fixture.js';
import { expectSchema } from './search-schema.js';

const engine = createSearchEngine(makeStore(CORPUS));

describe('test mode', () => {
  const test = ctx({ mode: 'test' });

  it('truncates text fields with the marker, keeps structure, charges nothing', () => {
    const r = engine.everything({ 'article.id': '1' }, test);
    const [a] = r.body['results'] as Article[];
    expect(r.points).toBe(0);
    expect(a?.title).toBe('Climate change policy debate in Europe');
    for (const text of [a?.body, a?.description, a?.summary[0]?.sentence]) {
      expect(text?.endsWith(TEST_MODE_MARKER)).toBe(true);
      expect(text?.length).toBeLessThanOrEqual(100 + TEST_MODE_MARKER.length);
    }
    expect(a?.body_html).toMatch(/^<p>.*truncated.*<\/p>$/);
    expect(CORPUS[0]?.body.endsWith(TEST_MODE_MARKER)).toBe(false);
    expectSchema('/v1/news/everything', r.body);
  });

  it('caps count at 100', () => {
    const big = createSearchEngine(
      makeStore(Array.from({ length: 150 }, (_, i) => article(i + 1))),
    );
    expect(big.count({}, ctx()).body['count']).toBe(150);
    expect(big.count({}, test).body['count']).toBe(100);
    expect(big.count({ 'article.id': '1,2' }, test).body['count']).toBe(2);
    expectSchema('/v1/news/count', big.count({}, test).body);
  });

  it('replaces trend values with a placeholder but keeps the numbers', () => {
    const live = engine.trends({ field: 'source.id' }, ctx()).body['trends'] as {
      value: unknown;
      count: number;
    }[];
    const hidden = engine.trends({ field: 'source.id' }, test).body['trends'] as {
      value: unknown;
      count: number;
    }[];
    expect(hidden.map((t) => t.count)).toEqual(live.map((t) => t.count));
    expect(hidden.every((t) => t.value === TEST_MODE_TREND_VALUE)).toBe(true);
    expect(live[0]?.value).toMatchObject({ id: 1, domain: 'alpha.com' });
  });
});

describe('points', () => {
  it('charges 1 point per live request and none for event types', () => {
    expect(engine.everything({}, ctx()).points).toBe(1);
    expect(engine.count({}, ctx()).points).toBe(1);
    expect(engine.trends({ field: 'entity.id' }, ctx()).points).toBe(1);
    expect(engine.eventTypes().points).toBe(0);
    expect(engine.local({ lat: 48.85, lng: 2.35, insights: 'mood,sources' }, ctx()).points).toBe(3);
  });
});

describe('count', () => {
  it('counts matches with the search filters', () => {
    expect(engine.count({ 'language.code': 'en' }, ctx()).body).toEqual({
      status: 'ok',
      count: 3,
      request_id: 'req_test',
    });
  });
});

describe('top-headlines', () => {
  it('keeps sources of authority 5 or more, highest authority first', () => {
    const body = engine.headlines({}, ctx({ path: '/v1/news/top-headlines' })).body;
    expect(ids(body)).toEqual([2, 1, 4, 5]);
    expect(String(body['path'])).toContain('/v1/news/top-headlines?');
    expect(
      ids(engine.headlines({ 'language.code': 'en', 'sort.by': 'published_at' }, ctx()).body),
    ).toEqual([1, 4, 5]);
    expectSchema('/v1/news/top-headlines', body);
  });
});

describe('story', () => {
  it('answers the other articles of the story', () => {
    const body = engine.story('1', {}, ctx()).body;
    expect(ids(body)).toEqual([2, 3]);
    expect(ids(engine.story('1', { 'language.code': 'fr' }, ctx()).body)).toEqual([3]);
    expect(ids(engine.story('4', {}, ctx()).body)).toEqual([]);
    expectSchema('/v1/news/story/{articleId}', body);
  });
});

describe('article', () => {
  it('answers the requested ids in the order asked, at most five', () => {
    expect(ids(engine.article({ id: '5,1,999,3' }, ctx()).body)).toEqual([5, 1, 3]);
    expect(ids(engine.article({ ids: [4, 2] }, ctx()).body)).toEqual([4, 2]);
    expect(ids(engine.article({ 'article.id': '1,2,3,4,5,6' }, ctx()).body)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(
      ids(engine.article({ id: '5,1', 'sort.by': 'id', 'sort.order': 'asc' }, ctx()).body),
    ).toEqual([1, 5]);
    expectSchema('/v1/news/article', engine.article({ id: '1' }, ctx()).body);
  });
});

describe('entity feed', () => {
  it('pages the articles mentioning the entity, newest first', () => {
    const body = engine.entityFeed('906', { per_page: 1 }, ctx()).body;
    expect(ids(body)).toEqual([2]);
    expect(body['has_next_pages']).toBe(true);
    expect(ids(engine.entityFeed('906', {}, ctx()).body)).toEqual([2, 6]);
    expectSchema('/v1/news/entity/{entityId}', body);
  });
});

describe('event types', () => {
  it('lists the 44 codes with their categories', () => {
    const body = engine.eventTypes().body as {
      event_types: { code: string; category: string }[];
      categories: string[];
    };
    expect(body.event_types).toHaveLength(44);
    expect(body.categories).toEqual(['business', 'society', 'environment']);
    expect(body.event_types).toContainEqual({ code: 'ipo', category: 'business' });
    expectSchema('/v1/news/event-types', body, 'get');
  });
});

describe('local', () => {
  const near: Article[] = [
    article(1, {
      locations_mentioned: [
        { name: 'Versailles', country: 'FR', lat: 48.8049, lng: 2.1204, type: 'city' },
      ],
      source: source({ rank: 2 }),
    }),
    article(2, {
      entities: [PARIS],
      locations_mentioned: [
        { name: 'Paris', country: 'FR', lat: 48.8566, lng: 2.3522, type: 'city' },
      ],
      published_at: hoursAgo(50),
      source: BETA,
    }),
    article(3, {
      entities: [TOKYO],
      locations_mentioned: [
        { name: 'Tokyo', country: 'JP', lat: 35.6762, lng: 139.6503, type: 'city' },
      ],
    }),
    article(4, {
      locations_mentioned: [
        { name: 'Lyon', country: 'FR', lat: 45.764, lng: 4.8357, type: 'city' },
        { name: 'Paris', country: 'FR', lat: 48.8566, lng: 2.3522, type: 'city' },
      ],
      published_at: daysAgo(3),
      source: GAMMA,
    }),
  ];
  const e = createSearchEngine(makeStore(near));

  it('finds articles with a mentioned place in the radius, nearest first, with distance and place', () => {
    const body = e.local(
      { lat: 48.8566, lng: 2.3522, radius: 30 },
      ctx({ path: '/v1/news/local' }),
    ).body;
    expect(ids(body)).toEqual([2, 4, 1]);
    const [first, , third] = body['results'] as {
      distance_km: number;
      nearest_location: { name: string };
    }[];
    expect(first?.distance_km).toBe(0);
    expect(first?.nearest_location.name).toBe('Paris');
    expect(third?.distance_km).toBeGreaterThan(17);
    expect(third?.distance_km).toBeLessThan(18);
    expect(body['total']).toBe(3);
    expect(body['query']).toEqual({ lat: 48.8566, lng: 2.3522, radius_km: 30 });
    expectSchema('/v1/news/local', body);
  });

  it('geocodes a place against the location entities', () => {
    const body = e.local({ place: 'paris', radius: 30 }, ctx()).body;
    expect(body['query']).toMatchObject({ place: 'Paris', resolved_entity_id: 903 });
    expect(ids(body)).toEqual([2, 4, 1]);
  });

  it('sorts by date or relevance on request and takes the search filters', () => {
    expect(
      ids(e.local({ lat: 48.8566, lng: 2.3522, radius: 30, sort: 'published_at' }, ctx()).body),
    ).toEqual([1, 2, 4]);
    const rel = e.local(
      { lat: 48.8566, lng: 2.3522, radius: 30, sort: 'relevance', ranking: 'fresh' },
      ctx(),
    ).body;
    // Fresh weighs recency most: the hour-old article 1 beats the nearer but older ones.
    expect(ids(rel)).toEqual([1, 2, 4]);
    expect(rel['ranking_weights']).toEqual({
      distance: 0.2,
      opr: 0.1,
      recency: 0.6,
      important: 0.1,
    });
    const authority = e.local(
      { lat: 48.8566, lng: 2.3522, radius: 30, sort: 'relevance', 'w.opr': 5 },
      ctx(),
    ).body;
    expect(ids(authority)[0]).toBe(2);
    expect(
      ids(e.local({ lat: 48.8566, lng: 2.3522, radius: 30, 'source.bias': 'left' }, ctx()).body),
    ).toEqual([4]);
  });

  it('computes insight blocks', () => {
    const body = e.local(
      { lat: 48.8566, lng: 2.3522, radius: 30, insights: 'mood,sources,breaking' },
      ctx(),
    ).body;
    expect(body['local_insights']).toMatchObject({
      mood: { distribution: { positive: 0, neutral: 3, negative: 0 } },
      breaking: { count: 0, share: 0 },
    });
    expectSchema('/v1/news/local', body);
  });
});

describe('trends', () => {
  it('counts values over the window with percentage and growth rate', () => {
    const body = engine.trends({ field: 'entity.id', per_page: 2 }, ctx()).body;
    const trends = body['trends'] as {
      value: { id: number; name: string };
      count: number;
      percentage: number;
    }[];
    // Article 5 is 40 days old: outside the 30-day window.
    expect(body).toMatchObject({
      field: 'entity.id',
      total_articles: 5,
      per_page: 2,
      offset: 0,
      sort: 'count',
    });
    expect(trends[0]).toMatchObject({
      value: { id: 906, name: 'Elon Musk' },
      count: 2,
      percentage: 40,
    });
    expect(trends).toHaveLength(2);
    expectSchema('/v1/news/trends', body);
  });

  it('takes several fields, filters, mincount, sort and offset', () => {
    const body = engine.trends(
      { field: 'source.domain,language.code', 'source.bias': 'left,center' },
      ctx(),
    ).body;
    const trends = body['trends'] as Record<
      string,
      { trends: { value: string; count: number }[]; total_articles: number }
    >;
    expect(body['fields']).toEqual(['source.domain', 'language.code']);
    expect(trends['source.domain']?.trends).toEqual([
      expect.objectContaining({ value: 'alpha.com', count: 2 }),
      expect.objectContaining({ value: 'gamma.fr', count: 2 }),
    ]);
    expectSchema('/v1/news/trends', body);
    const byValue = engine.trends(
      { field: 'language.code', sort: 'value', order: 'asc', mincount: 1, offset: 1 },
      ctx(),
    ).body;
    expect((byValue['trends'] as { value: string }[]).map((t) => t.value)).toEqual(['en', 'fr']);
  });

  it('compares with the preceding window and buckets in time', () => {
    const body = engine.trends(
      {
        field: 'language.code',
        compare: '1',
        compare_window: '30DAYS',
        time_bucket: 'day',
        'published_at.start': daysAgo(20),
      },
      ctx(),
    ).body;
    const en = (body['trends'] as Record<string, unknown>[]).find((t) => t['value'] === 'en');
    expect(en).toMatchObject({ count: 2, previous_count: 1, change_absolute: 1, total: 2 });
    expect(
      Object.values(en?.['buckets'] as Record<string, number>).reduce((a, b) => a + b, 0),
    ).toBe(2);
    expect(body['compare_window']).toBe('30DAYS');
  });
});

describe('the store growing', () => {
  it('sees articles added after the engine was built', () => {
    const store = makeStore([article(1)]);
    const e = createSearchEngine(store);
    expect(ids(e.everything({}, ctx()).body)).toEqual([1]);
    store.add([article(2, { published_at: hoursAgo(0.5) })]);
    expect(ids(e.everything({}, ctx()).body)).toEqual([2, 1]);
  });

  it('matches indexed articles by id with matcher(), and nothing it does not know', () => {
    const store = makeStore([
      article(99, { language: 'de', is_breaking: true }),
      article(98, { language: 'de' }),
    ]);
    const match = createSearchEngine(store).matcher(
      { 'language.code': 'de', is_breaking: 1 },
      ctx(),
    );
    expect(match(99)).toBe(true);
    expect(match(98)).toBe(false);
    expect(match(97)).toBe(false);
  });
});
