/**
 * Conformance over HTTP, part 1: every path of the specification is served,
 * the news paths answer GET with query parameters and POST with a JSON body
 * alike, and the answers have the OpenAPI document's shapes. The real server,
 * the real engine, the committed fixtures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../../src/mock/fixtures/types.js';
import type { MockServer } from '../../src/mock/server.js';
import { PRO, api, ids, page, startConformanceServer } from './conformance-server.js';
import { assertMatches } from './server-helpers.js';

let server: MockServer;
let article: Article;
let place: { lat: number; lng: number };
let webhookId: number;

beforeAll(async () => {
  server = await startConformanceServer();
  const { articles } = server.store;
  article = articles.find((a) => a.entities.length > 0 && a.story.id !== a.id) ?? articles[0]!;
  const located = articles.flatMap((a) => a.locations_mentioned).find((l) => l.lat !== null)!;
  place = { lat: located.lat!, lng: located.lng! };
  const created = await api(server, 'POST', '/__mock/webhooks', {
    body: { url: 'http://127.0.0.1:9/hook', filters: { 'language.code': 'en' }, api_key: PRO },
  });
  webhookId = (created.json as { id: number }).id;
});
afterAll(() => server.close());

/** Each path of the specification's endpoint summary, with a concrete id. */
function specPaths(): [method: string, path: string, schema?: string][] {
  const { people, companies, journalists } = server.store;
  const entity = article.entities[0]!.id;
  return [
    ['GET', '/ping', '/ping'],
    ['GET', '/v1/balance', '/v1/balance'],
    ['POST', '/v1/news/everything', '/v1/news/everything'],
    ['GET', '/v1/news/top-headlines'],
    ['GET', `/v1/news/story/${article.id}`],
    ['GET', `/v1/news/article?ids=${article.id}`],
    ['GET', '/v1/news/count'],
    ['GET', '/v1/news/trends?field=entity.id'],
    ['GET', `/v1/news/local?lat=${place.lat}&lng=${place.lng}`],
    ['GET', `/v1/news/entity/${entity}`],
    ['GET', '/v1/news/event-types', '/v1/news/event-types'],
    ['GET', '/v1/suggest/entities?prefix=a', '/v1/suggest/entities'],
    ['GET', '/v1/suggest/categories?prefix=a', '/v1/suggest/categories'],
    ['GET', '/v1/suggest/topics?prefix=a', '/v1/suggest/topics'],
    ['GET', '/v1/suggest/industries?prefix=a', '/v1/suggest/industries'],
    ['GET', '/v1/people', '/v1/people'],
    ['GET', `/v1/people/${people[0]!.id}`, '/v1/people/{id}'],
    ['GET', '/v1/companies', '/v1/companies'],
    ['GET', `/v1/companies/${companies[0]!.id}`, '/v1/companies/{id}'],
    ['GET', '/v1/journalists', '/v1/journalists'],
    ['GET', `/v1/journalists/${journalists[0]!.id}`, '/v1/journalists/{id}'],
    ['GET', '/v1/webhooks'],
    ['GET', `/v1/webhooks/${webhookId}`],
    ['PATCH', `/v1/webhooks/${webhookId}`],
  ];
}

describe('every path of the specification', () => {
  it('answers 200 on each, in the OpenAPI shape where the document has one', async () => {
    for (const [method, path, schema] of specPaths()) {
      const r = await api(server, method, path, {
        key: PRO,
        ...(method === 'PATCH' ? { body: { status: 'paused' } } : {}),
      });
      expect(r.status, `${method} ${path}: ${r.text.slice(0, 200)}`).toBe(200);
      if (schema !== undefined) assertMatches(schema, method, 200, r.json);
    }
  });

  it('deletes a webhook', async () => {
    const r = await api(server, 'DELETE', `/v1/webhooks/${webhookId}`, { key: PRO });
    expect(r.json).toEqual({ status: 'ok', id: webhookId, deleted: true });
  });

  it('serves the stream as server-sent events', async () => {
    const controller = new AbortController();
    const r = await fetch(`${server.url}/v1/news/stream?language.code=en`, {
      headers: { 'x-api-key': PRO },
      signal: controller.signal,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(r.headers.get('x-service-mode')).toBe('live');
    controller.abort();
  });
});

describe('GET with query parameters and POST with a JSON body', () => {
  const cases = (): [path: string, query: Record<string, string>][] => [
    ['/v1/news/everything', { 'language.code': 'en', per_page: '7', 'sort.by': 'read_time' }],
    ['/v1/news/top-headlines', { per_page: '5' }],
    [`/v1/news/story/${article.id}`, { per_page: '5' }],
    ['/v1/news/article', { ids: `${article.id}` }],
    ['/v1/news/count', { 'language.code': 'de' }],
    ['/v1/news/trends', { field: 'language.code' }],
    ['/v1/news/local', { lat: String(place.lat), lng: String(place.lng), per_page: '5' }],
    [`/v1/news/entity/${article.entities[0]!.id}`, { per_page: '5' }],
    ['/v1/news/event-types', {}],
  ];

  it('gives the same answer both ways on every news path', async () => {
    for (const [path, query] of cases()) {
      const get = await api(server, 'GET', `${path}?${new URLSearchParams(query)}`, { key: PRO });
      const post = await api(server, 'POST', path, { key: PRO, body: query });
      expect(get.status, `${path}: ${get.text.slice(0, 200)}`).toBe(200);
      expect(post.status, path).toBe(200);
      const strip = (body: unknown) => JSON.stringify(body).replace(/"req_[0-9a-f]{16}"/g, '"id"');
      expect(strip(post.json), path).toBe(strip(get.json));
    }
  });

  it('matches the OpenAPI response schema of each search-like path', async () => {
    const { categories, topics, industries } = server.store.suggest;
    const shaped: [path: string, schema: string, body: Record<string, unknown>][] = [
      ['/v1/news/everything', '/v1/news/everything', { per_page: 3, hl: 1, title: 'the' }],
      ['/v1/news/top-headlines', '/v1/news/top-headlines', { per_page: 3 }],
      [`/v1/news/story/${article.id}`, '/v1/news/story/{articleId}', { per_page: 3 }],
      ['/v1/news/article', '/v1/news/article', { ids: String(article.id) }],
      [`/v1/news/entity/${article.entities[0]!.id}`, '/v1/news/entity/{entityId}', { per_page: 3 }],
      [
        `/v1/news/category/iptc_mediatopics/${categories[0]!.id}`,
        '/v1/news/category/{taxonomy}/{categoryId}',
        { per_page: 3 },
      ],
      [`/v1/news/topic/${topics[0]!.id}`, '/v1/news/topic/{topicId}', { per_page: 3 }],
      [`/v1/news/industry/${industries[0]!.id}`, '/v1/news/industry/{industryId}', {}],
      ['/v1/news/count', '/v1/news/count', {}],
      ['/v1/news/trends', '/v1/news/trends', { field: 'entity.id' }],
      ['/v1/news/local', '/v1/news/local', { lat: place.lat, lng: place.lng, per_page: 3 }],
    ];
    for (const [path, schema, body] of shaped) {
      const r = await api(server, 'POST', path, { key: PRO, body });
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
      assertMatches(schema, 'POST', 200, r.json);
    }
  });
});

describe('profiles', () => {
  it('carry the coverage block, left out with coverage=false', async () => {
    for (const kind of ['people', 'companies', 'journalists'] as const) {
      const id = server.store[kind][0]!.id;
      const full = await api(server, 'GET', `/v1/${kind}/${id}`, { key: PRO });
      const coverage = (full.json as { coverage?: { article_count: number; timeline: unknown[] } })
        .coverage;
      expect(coverage?.article_count, kind).toBeGreaterThan(0);
      expect(coverage?.timeline.length, kind).toBeGreaterThan(0);
      const bare = await api(server, 'GET', `/v1/${kind}/${id}?coverage=false`, { key: PRO });
      expect(bare.json, kind).not.toHaveProperty('coverage');
      expect(bare.json, kind).toHaveProperty('recent_articles');
    }
  });
});

describe('fl: field selection', () => {
  it('keeps only the named fields, dotted names included, on GET and POST', async () => {
    const fl = 'id,title,source.domain,entities.name';
    const r = page(
      await api(server, 'GET', `/v1/news/everything?per_page=3&fl=${fl}`, { key: PRO }),
    );
    expect(r.results.length).toBe(3);
    for (const a of r.results) {
      expect(Object.keys(a).sort()).toEqual(['entities', 'id', 'source', 'title']);
      expect(Object.keys(a.source)).toEqual(['domain']);
      for (const e of a.entities) expect(Object.keys(e)).toEqual(['name']);
    }
    const post = await api(server, 'POST', '/v1/news/everything', {
      key: PRO,
      body: { per_page: 3, fl },
    });
    expect(page(post).results).toEqual(r.results);
  });

  it('applies to every search-like path and leaves paging alone', async () => {
    for (const path of ['/v1/news/top-headlines', `/v1/news/story/${article.id}`]) {
      const r = page(
        await api(server, 'POST', path, { key: PRO, body: { per_page: 2, fl: 'id' } }),
      );
      for (const a of r.results) expect(Object.keys(a)).toEqual(['id']);
      expect(typeof r.has_next_pages).toBe('boolean');
    }
    const one = page(
      await api(server, 'GET', `/v1/news/article?ids=${article.id}&fl=title`, { key: PRO }),
    );
    expect(one.results).toEqual([{ title: article.title }]);
  });

  it('is not applied when it names no field of the articles', async () => {
    const plain = ids(await api(server, 'GET', '/v1/news/everything?per_page=2', { key: PRO }));
    const r = page(
      await api(server, 'GET', '/v1/news/everything?per_page=2&fl=nothing,no.such', { key: PRO }),
    );
    expect(r.results.map((a) => a.id)).toEqual(plain);
    expect(r.results[0]).toHaveProperty('body');
  });
});
