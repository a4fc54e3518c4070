/**
 * The server over the real fixtures and the real search engine: the seams
 * (engine adapter, article intake, test mode, metering of engine costs) hold
 * together end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { startMockServer } from '../../src/mock/server.js';
import { TEST_MODE_MARKER } from '../../src/mock/search/test-mode.js';
import { assertMatches, call } from './server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ quiet: true, now: new Date('2026-03-15T12:00:00Z') });
});
afterAll(() => server.close());

const live = { key: 'api_live_mock_pro' };
const test = { key: 'api_test_mock_basic' };

interface Search {
  results: { id: number; body: string }[];
}

describe('mock server over the real fixtures', () => {
  it('charges live keys exactly the points the engine reports', async () => {
    const before = server.accounts.get(live.key)!.points;
    const r = await call(server, 'POST', '/v1/news/everything', { ...live, body: { per_page: 5 } });
    expect(r.status).toBe(200);
    const used = Number(r.headers.get('x-points-used'));
    expect(used).toBeGreaterThan(0);
    expect(server.accounts.get(live.key)!.points).toBe(before - used);
    expect(Number(r.headers.get('x-points-remaining'))).toBe(before - used);
    expect((r.json as Search).results.length).toBe(5);
  });

  it('serves test keys truncated text and charges nothing', async () => {
    const r = await call(server, 'GET', '/v1/news/everything?per_page=3', test);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-points-used')).toBe('0');
    expect(r.headers.get('x-service-mode')).toBe('test');
    expect((r.json as Search).results[0]?.body).toContain(TEST_MODE_MARKER);
  });

  it('passes the engine’s coded errors through the envelope, free of charge', async () => {
    const before = server.accounts.get(live.key)!.points;
    const r = await call(server, 'POST', '/v1/news/everything', {
      ...live,
      body: { 'entity.sentiment.polarity': 'positive' },
    });
    expect(r.status).toBe(400);
    expect((r.json as { errors: { code: string }[] }).errors[0]?.code).toBe('ER0293');
    expect(server.accounts.get(live.key)!.points).toBe(before);
    expect(r.headers.get('x-service-mode')).toBe('live');
  });

  it('serves real directory profiles in the OpenAPI shape', async () => {
    const list = await call(server, 'GET', '/v1/people?per_page=5', live);
    assertMatches('/v1/people', 'GET', 200, list.json);
    const first = (list.json as { results: { id: number; name: string }[] }).results[0]!;
    const profile = await call(server, 'GET', `/v1/people/${first.id}`, live);
    assertMatches('/v1/people/{id}', 'GET', 200, profile.json);
    const body = profile.json as {
      coverage: { article_count: number };
      recent_articles: unknown[];
    };
    expect(body.coverage.article_count).toBe(server.store.rowsOf('entity', first.id).length);
    expect(body.recent_articles.length).toBeLessThanOrEqual(5);
    const journalists = await call(server, 'GET', '/v1/journalists?per_page=1', live);
    assertMatches('/v1/journalists', 'GET', 200, journalists.json);
    const j = (journalists.json as { results: { id: number }[] }).results[0]!;
    assertMatches(
      '/v1/journalists/{id}',
      'GET',
      200,
      (await call(server, 'GET', `/v1/journalists/${j.id}`, live)).json,
    );
    const company = server.store.companies[0]!;
    assertMatches(
      '/v1/companies/{id}',
      'GET',
      200,
      (await call(server, 'GET', `/v1/companies/${company.id}`, live)).json,
    );
    const suggest = await call(
      server,
      'GET',
      `/v1/suggest/entities?prefix=${encodeURIComponent(first.name.slice(0, 3))}`,
      live,
    );
    assertMatches('/v1/suggest/entities', 'GET', 200, suggest.json);
    expect((suggest.json as unknown[]).length).toBeGreaterThan(0);
  });

  it('makes posted articles searchable and streams only those matching the filters', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/news/stream?language.code=fr`, {
      headers: { 'x-api-key': live.key },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    const posted = await call(server, 'POST', '/__mock/articles', {
      body: [
        { title: 'Zyxwv anglais', language: 'en' },
        { title: 'Zyxwv français', language: 'fr' },
      ],
    });
    const ids = (posted.json as { ids: number[] }).ids;
    while (!text.includes('event: article')) text += decoder.decode((await reader.read()).value);
    expect(text).toContain(`id: ${ids[1]}`);
    expect(text).not.toContain(`id: ${ids[0]}`);
    controller.abort();

    const found = await call(server, 'POST', '/v1/news/everything', {
      ...live,
      body: { title: 'Zyxwv' },
    });
    expect((found.json as Search).results.map((a) => a.id).sort()).toEqual([...ids].sort());
  });
});
