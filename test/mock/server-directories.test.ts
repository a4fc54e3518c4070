import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { TEST_MODE_MARKER } from '../../src/mock/search/test-mode.js';
import { ACME, ADA, JOURNALIST, NOBODY } from './server-fixture.js';
import { assertMatches, call, startTestServer } from './server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const pro = { key: 'api_live_mock_pro' };

interface ListBody {
  status: string;
  limit: number;
  page: number;
  has_next_pages: boolean;
  results: { id: number; name: string }[];
}

describe('mock server: directory lists', () => {
  it.each(['people', 'companies', 'journalists'])(
    'serves /v1/%s in the list envelope',
    async (kind) => {
      const r = await call(server, 'GET', `/v1/${kind}`, pro);
      expect(r.status).toBe(200);
      assertMatches(`/v1/${kind}`, 'GET', 200, r.json);
      const body = r.json as ListBody;
      expect(Object.keys(body).sort()).toEqual([
        'has_next_pages',
        'limit',
        'page',
        'results',
        'status',
      ]);
      expect(body.results.length).toBeGreaterThan(0);
    },
  );

  it('filters by name substring, case-insensitively', async () => {
    const body = (await call(server, 'GET', '/v1/people?name=LOVE', pro)).json as ListBody;
    expect(body.results.map((p) => p.id)).toEqual([ADA]);
  });

  it('filters by wikidata_id with or without the Q', async () => {
    for (const id of [`Q${ADA}`, String(ADA), `q${ADA}`]) {
      const body = (await call(server, 'GET', `/v1/people?wikidata_id=${id}`, pro))
        .json as ListBody;
      expect([id, body.results.map((p) => p.id)]).toEqual([id, [ADA]]);
    }
    const company = (await call(server, 'GET', `/v1/companies?wikidata_id=Q${ACME}`, pro))
      .json as ListBody;
    expect(company.results.map((c) => c.id)).toEqual([ACME]);
  });

  it('does not apply a wikidata_id that is not one (the parameter table decides)', async () => {
    const all = (await call(server, 'GET', '/v1/people', pro)).json as ListBody;
    const bad = (await call(server, 'GET', '/v1/people?wikidata_id=Ada', pro)).json as ListBody;
    expect(bad.results.length).toBeGreaterThan(1);
    expect(bad.results).toEqual(all.results);
  });

  it('pages with page and per_page and says when more pages follow', async () => {
    const first = (await call(server, 'GET', '/v1/people?per_page=10&page=1', pro))
      .json as ListBody;
    const third = (await call(server, 'GET', '/v1/people?per_page=10&page=3', pro))
      .json as ListBody;
    expect(first).toMatchObject({ limit: 10, page: 1, has_next_pages: true });
    expect(third).toMatchObject({ limit: 10, page: 3, has_next_pages: false });
    expect(third.results).toHaveLength(7); // 27 people
    expect(first.results[0]?.id).not.toBe(third.results[0]?.id);
  });

  it('caps per_page at the plan ceiling and the global 250', async () => {
    const cases: [string, string, number][] = [
      ['api_live_mock_free', '', 10],
      ['api_live_mock_free', '?per_page=100', 10],
      ['api_live_mock_starter', '?per_page=100', 50],
      ['api_live_mock_basic', '?per_page=250', 200],
      ['api_live_mock_pro', '?per_page=1000', 250],
      ['api_live_mock_pro', '', 100],
    ];
    for (const [key, query, limit] of cases) {
      const body = (await call(server, 'GET', `/v1/people${query}`, { key })).json as ListBody;
      expect([key, query, body.limit]).toEqual([key, query, limit]);
      expect(body.results.length).toBeLessThanOrEqual(limit);
    }
  });
});

interface Coverage {
  article_count: number;
  first_seen: string | null;
  last_seen: string | null;
  sentiment: { positive: number; neutral: number; negative: number };
  momentum: { last_30_days: number; previous_30_days: number; change_pct: number | null };
  timeline: { period: string; count: number }[];
  top_sources: { id: number; name: string; domain: string; count: number }[];
  top_topics: { id: string; name: string; count: number }[];
  top_countries: { id: number; name: string; code: string; count: number }[];
  top_languages: { id: number; name: string; code: string; count: number }[];
  related_entities: { id: number; name: string; count: number }[];
  top_entities: { id: number; name: string; count: number }[];
}
interface ProfileBody {
  id: number;
  coverage?: Coverage;
  recent_articles: { id: number; body: string }[];
  outlets?: unknown[];
  outlet_count?: number;
}

describe('mock server: profiles', () => {
  it('computes the coverage block of a person from the articles', async () => {
    const r = await call(server, 'GET', `/v1/people/${ADA}`, pro);
    expect(r.status).toBe(200);
    assertMatches('/v1/people/{id}', 'GET', 200, r.json);
    const { coverage, recent_articles } = r.json as ProfileBody;
    expect(coverage).toBeDefined();
    const c = coverage!;
    expect(c.article_count).toBe(8);
    expect(c.sentiment).toEqual({ positive: 3, neutral: 3, negative: 2 });
    expect(c.momentum).toEqual({ last_30_days: 3, previous_30_days: 2, change_pct: 50 });
    expect(c.last_seen).toBe('2026-03-14');
    expect(c.first_seen).toBe('2022-11-11');
    // 24 months at most, chronological, ending with the current month, zero months included.
    expect(c.timeline).toHaveLength(24);
    expect(c.timeline.at(-1)).toEqual({ period: '2026-03', count: 2 });
    expect(c.timeline[0]?.period).toBe('2024-04');
    expect(c.timeline.reduce((n, t) => n + t.count, 0)).toBe(7); // the 40-month-old one is outside
    expect(c.top_sources[0]).toEqual({
      id: 1,
      name: 'Daily Planet',
      domain: 'dailyplanet.example',
      count: 6,
    });
    expect(c.related_entities).toEqual([
      { id: ACME, name: 'Acme Corp', count: 4 },
      { id: 401, name: 'Paris', count: 2 },
    ]);
    expect(c.top_countries).toEqual([
      { id: 840, name: 'United States', code: 'US', count: 6 },
      { id: 250, name: 'France', code: 'FR', count: 2 },
    ]);
    expect(c.top_languages.map((l) => [l.code, l.count])).toEqual([
      ['en', 6],
      ['fr', 2],
    ]);
    expect(c.top_topics).toEqual([
      { id: 'science.computing', name: 'science.computing', count: 2 },
    ]);
    // The 5 latest, complete articles.
    expect(recent_articles.map((a) => a.id)).toEqual([1, 2, 3, 4, 5]);
    expect(recent_articles[0]?.body).not.toContain(TEST_MODE_MARKER);
  });

  it('gives null change_pct and an empty timeline to an entity nobody writes about', async () => {
    const { coverage, recent_articles } = (await call(server, 'GET', `/v1/people/${NOBODY}`, pro))
      .json as ProfileBody;
    expect(coverage).toMatchObject({
      article_count: 0,
      first_seen: null,
      last_seen: null,
      timeline: [],
      momentum: { last_30_days: 0, previous_30_days: 0, change_pct: null },
    });
    expect(recent_articles).toEqual([]);
  });

  it('drops the coverage block with coverage=false, never recent_articles', async () => {
    const r = await call(server, 'GET', `/v1/companies/${ACME}?coverage=false`, pro);
    assertMatches('/v1/companies/{id}', 'GET', 200, r.json);
    const body = r.json as ProfileBody;
    expect(body).not.toHaveProperty('coverage');
    expect(body.recent_articles.map((a) => a.id)).toEqual([1, 4, 5, 6]);
  });

  it('merges author records by name for a journalist and caps outlets at 500', async () => {
    const r = await call(server, 'GET', `/v1/journalists/${JOURNALIST}`, pro);
    assertMatches('/v1/journalists/{id}', 'GET', 200, r.json);
    const body = r.json as ProfileBody;
    expect(body.outlets).toHaveLength(500);
    expect(body.outlet_count).toBe(600);
    expect(body.coverage?.article_count).toBe(4); // 1 and 3 by record 301, 2 and 9 by 302
    expect(body.recent_articles.map((a) => a.id)).toEqual([1, 9, 2, 3]);
    expect(body.coverage?.top_entities[0]).toEqual({ id: ADA, name: 'Ada Lovelace', count: 3 });
    expect(body.coverage).not.toHaveProperty('related_entities');
  });

  it('truncates recent_articles for test keys', async () => {
    const body = (await call(server, 'GET', `/v1/people/${ADA}`, { key: 'api_test_mock_basic' }))
      .json as ProfileBody;
    expect(body.recent_articles[0]?.body).toContain(TEST_MODE_MARKER);
  });

  it.each(['people', 'companies', 'journalists'])(
    'answers 404 ER0151 for an unknown %s id',
    async (kind) => {
      for (const id of ['999999', 'abc']) {
        const r = await call(server, 'GET', `/v1/${kind}/${id}`, pro);
        expect(r.status).toBe(404);
        assertMatches(`/v1/${kind}/{id}`, 'GET', 404, r.json);
        const error = (r.json as { errors: Record<string, unknown>[] }).errors[0]!;
        expect(error['code']).toBe('ER0151');
        expect(Object.keys(error).sort()).toEqual(['code', 'message', 'status']);
      }
    },
  );
});

describe('mock server: suggest', () => {
  it.each([
    ['entities', 'ada', 'Ada Lovelace'],
    ['entities', 'lovel', 'Ada Lovelace'],
    ['categories', 'econ', 'economy, business and finance'],
    ['topics', 'comp', 'Computing'],
    ['topics', 'economy.', 'Interest Rates'],
    ['industries', 'soft', 'Software'],
  ])('%s?prefix=%s finds %s, as a bare array of the OpenAPI shape', async (kind, prefix, name) => {
    const r = await call(
      server,
      'GET',
      `/v1/suggest/${kind}?prefix=${encodeURIComponent(prefix)}`,
      pro,
    );
    expect(r.status).toBe(200);
    assertMatches(`/v1/suggest/${kind}`, 'GET', 200, r.json);
    expect(Array.isArray(r.json)).toBe(true);
    expect((r.json as { name: string }[]).map((s) => s.name)).toContain(name);
  });

  it('returns knowledge-base links with entity results', async () => {
    const [ada] = (await call(server, 'GET', '/v1/suggest/entities?prefix=Ada', pro)).json as {
      id: number;
      links: Record<string, string>;
    }[];
    expect(ada?.id).toBe(ADA);
    expect(ada?.links).toMatchObject({
      self: `/v1/news/entity/${ADA}`,
      wikipedia: expect.stringMatching(/wikipedia\.org/),
      wikidata: expect.stringMatching(/wikidata\.org/),
    });
  });

  it('returns an empty array when nothing matches and 400 without a prefix', async () => {
    expect((await call(server, 'GET', '/v1/suggest/entities?prefix=zzzz', pro)).json).toEqual([]);
    expect((await call(server, 'GET', '/v1/suggest/entities', pro)).status).toBe(400);
  });
});
