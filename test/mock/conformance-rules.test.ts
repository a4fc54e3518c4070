/**
 * Conformance over HTTP, part 3: the coded errors with the full envelope,
 * keys and modes, CORS, test keys, points, faults, and determinism (two
 * servers with the same seed and --now give the same answers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { TEST_MODE_MARKER, TEST_MODE_TREND_VALUE } from '../../src/mock/search/test-mode.js';
import {
  FREE,
  NOW,
  PRO,
  TEST,
  api,
  page,
  search,
  startConformanceServer,
} from './conformance-server.js';
import { expectEnvelope } from './server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startConformanceServer();
});
afterAll(() => server.close());

const DAY = 86_400_000;
const daysAgo = (d: number) => new Date(NOW.getTime() - d * DAY).toISOString();

describe('coded errors, each in the full error envelope', () => {
  const cases: [label: string, body: Record<string, unknown>, status: number, code: string][] = [
    [
      'ER0110 title range over 31 days',
      { title: 'market', 'published_at.start': daysAgo(60), 'published_at.end': daysAgo(1) },
      400,
      'ER0110',
    ],
    ['ER0218 location.name', { 'location.name': 'Atlantis' }, 400, 'ER0218'],
    ['ER0222 brand.name', { 'brand.name': 'Acme Rockets' }, 400, 'ER0222'],
    ['ER0224 disaster.name', { 'disaster.name': 'Great Flood' }, 400, 'ER0224'],
    ['ER0226 disease.name', { 'disease.name': 'Dragon Pox' }, 400, 'ER0226'],
    ['ER0228 event.name', { 'event.name': 'Moon Olympics' }, 400, 'ER0228'],
    ['ER0250 sport.name', { 'sport.name': 'Quidditch' }, 400, 'ER0250'],
    ['ER0293 entity sentiment', { 'entity.sentiment.polarity': 'positive' }, 400, 'ER0293'],
    ['ER0701 syntax', { query: 'climate AND (policy' }, 400, 'ER0701'],
    ['ER0702 unknown field', { query: 'colour:red' }, 400, 'ER0702'],
    ['ER0703 invalid value', { query: 'read_time:abc' }, 400, 'ER0703'],
    ['ER0704 wildcard', { query: 'tes*la' }, 400, 'ER0704'],
    ['ER0705 one-character term', { query: 'aa OR b' }, 400, 'ER0705'],
    ['ER0710 fuzzy', { query: 'tesla~2' }, 400, 'ER0710'],
    ['ER0711 nesting', { query: `${'('.repeat(11)}aa${')'.repeat(11)}` }, 400, 'ER0711'],
    ['ER0712 nested block', { query: '{{entity.id:1 AND {{entity.id:2}}}}' }, 400, 'ER0712'],
    ['ER0800 prompt length', { prompt: 'hi' }, 400, 'ER0800'],
    ['ER0802 nothing usable', { prompt: 'zzz qqq xxx' }, 400, 'ER0802'],
  ];

  it.each(cases)('%s', async (_label, body, status, code) => {
    const before = server.accounts.get(PRO)!.points;
    const r = await search(server, body);
    expectEnvelope(r, status, code);
    expect(server.accounts.get(PRO)!.points, 'errors are free').toBe(before);
  });

  it('ER0706: prompt on Free (403)', async () => {
    expectEnvelope(await search(server, { prompt: 'news about markets' }, FREE), 403, 'ER0706');
    expectEnvelope(
      await search(server, { prompt: 'news about markets' }, 'api_live_mock_starter'),
      403,
      'ER0706',
    );
  });

  it('ER0801 on demand: X-Mock-Scenario: prompt-unavailable fails prompts only (503)', async () => {
    const headers = { 'x-mock-scenario': 'prompt-unavailable' };
    const r = await api(server, 'POST', '/v1/news/everything', {
      key: PRO,
      headers,
      body: { prompt: 'positive news in English' },
    });
    expectEnvelope(r, 503, 'ER0801');
    const plain = await api(server, 'POST', '/v1/news/everything', {
      key: PRO,
      headers,
      body: { per_page: 1 },
    });
    expect(plain.status).toBe(200);
    const count = await api(server, 'GET', '/v1/news/count?prompt=news+in+German', {
      key: PRO,
      headers,
    });
    expectEnvelope(count, 503, 'ER0801');
  });

  it('ER0201: no key, unknown key', async () => {
    expectEnvelope(await api(server, 'GET', '/v1/news/everything'), 401, 'ER0201');
    expectEnvelope(await search(server, {}, 'api_live_nobody'), 401, 'ER0201');
  });

  it('ER0151: unknown profile, in the short form (status, code, message)', async () => {
    for (const kind of ['people', 'companies', 'journalists']) {
      const r = await api(server, 'GET', `/v1/${kind}/987654321`, { key: PRO });
      expect(r.status).toBe(404);
      const error = (r.json as { errors: { status: number; code: string; message: string }[] })
        .errors[0];
      expect(error).toMatchObject({ status: 404, code: 'ER0151' });
      expect(typeof error?.message).toBe('string');
    }
  });
});

describe('keys, modes and CORS', () => {
  it('takes the key three ways', async () => {
    for (const via of ['header', 'bearer', 'query'] as const) {
      const r = await api(server, 'GET', '/v1/news/count', { key: PRO, via });
      expect(r.status, via).toBe(200);
      expect(r.headers.get('x-service-mode')).toBe('live');
    }
  });

  it('answers a keyless OPTIONS preflight with 204, cacheable for a day', async () => {
    const r = await api(server, 'OPTIONS', '/v1/news/everything', {
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, content-type',
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-max-age')).toBe('86400');
    expect(r.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
  });

  it('reports x-service-mode test for a test key, even on errors', async () => {
    expect((await search(server, {}, TEST)).headers.get('x-service-mode')).toBe('test');
    expect((await search(server, { query: '(' }, TEST)).headers.get('x-service-mode')).toBe('test');
    expect(
      (await api(server, 'GET', '/v1/balance', { key: 'api_test_unknown' })).headers.get(
        'x-service-mode',
      ),
    ).toBe('test');
  });
});

describe('test keys', () => {
  it('truncate text with the marker and charge nothing', async () => {
    const before = server.accounts.get(TEST)!.points;
    const r = await search(server, { per_page: 3 }, TEST);
    expect(r.headers.get('x-points-used')).toBe('0');
    for (const a of page(r).results) expect(a.body.endsWith(TEST_MODE_MARKER)).toBe(true);
    expect(server.accounts.get(TEST)!.points).toBe(before);
  });

  it('cap count at 100', async () => {
    const live = await api(server, 'GET', '/v1/news/count', { key: PRO });
    const test = await api(server, 'GET', '/v1/news/count', { key: TEST });
    expect((live.json as { count: number }).count).toBeGreaterThan(100);
    expect((test.json as { count: number }).count).toBe(100);
  });

  it('get trend placeholders with the numbers kept', async () => {
    type Trends = { trends: { value: unknown; count: number }[] };
    const live = (await api(server, 'GET', '/v1/news/trends?field=language.code', { key: PRO }))
      .json as Trends;
    const test = (await api(server, 'GET', '/v1/news/trends?field=language.code', { key: TEST }))
      .json as Trends;
    expect(test.trends.map((t) => t.count)).toEqual(live.trends.map((t) => t.count));
    for (const t of test.trends) expect(t.value).toBe(TEST_MODE_TREND_VALUE);
  });
});

describe('points and rate limits', () => {
  it('meters live searches in X-Points-* and the balance', async () => {
    const before = server.accounts.get(PRO)!.points;
    const r = await search(server, { per_page: 1 });
    expect(r.headers.get('x-points-used')).toBe('1');
    expect(Number(r.headers.get('x-points-remaining'))).toBe(before - 1);
    const prompt = await search(server, { prompt: 'positive news from France in French' });
    expect(prompt.headers.get('x-points-used')).toBe('3');
    const again = await search(server, { prompt: 'positive news from France in French' });
    expect(again.headers.get('x-points-used')).toBe('1');
  });

  it('answers 402 to an empty live key on metered paths, free ones still answer', async () => {
    const empty = 'api_live_mock_empty';
    expectEnvelope(await search(server, {}, empty), 402);
    expectEnvelope(await api(server, 'GET', '/v1/people', { key: empty }), 402);
    expect((await api(server, 'GET', '/v1/news/event-types', { key: empty })).status).toBe(200);
  });

  it('reports the key’s window in the rate-limit headers', async () => {
    const r = await search(server, {}, 'api_live_mock_starter');
    expect(r.headers.get('x-ratelimit-limit')).toBe('1200');
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(1200);
  });
});

describe('faults on demand', () => {
  it('forces 500, 502 and 429 with the envelope', async () => {
    for (const status of [500, 502, 429]) {
      const r = await api(server, 'POST', '/v1/news/everything', {
        key: PRO,
        headers: { 'x-mock-scenario': String(status) },
        body: {},
      });
      expectEnvelope(r, status);
    }
  });

  it('fails the same requests for the same seed with --fail-rate', async () => {
    const statuses = async (): Promise<number[]> => {
      const s = await startConformanceServer({ failRate: 0.3, seed: 11, articles: 300 });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await search(s, { per_page: 1 })).status);
      await s.close();
      return out;
    };
    const first = await statuses();
    expect(first.some((s) => s >= 500)).toBe(true);
    expect(first).toContain(200);
    expect(await statuses()).toEqual(first);
  });
});

describe('determinism', () => {
  it('gives the same answers from two servers with the same seed and --now', async () => {
    const options = { seed: 42, articles: 800 };
    const [a, b] = await Promise.all([
      startConformanceServer(options),
      startConformanceServer(options),
    ]);
    try {
      const person = a.store.people[0]!.id;
      const requests: [string, string, Record<string, unknown>?][] = [
        ['POST', '/v1/news/everything', { per_page: 20, 'facet.field': 'language.id', hl: 1 }],
        ['POST', '/v1/news/everything', { title: 'the', 'sort.by': 'relevance' }],
        ['GET', '/v1/news/top-headlines?per_page=10'],
        ['GET', '/v1/news/trends?field=entity.id'],
        ['GET', '/v1/news/count?language.code=en'],
        ['GET', `/v1/people/${person}`],
        ['GET', '/v1/journalists?per_page=5'],
        ['GET', '/v1/suggest/entities?prefix=a'],
      ];
      // Request ids are unique per server and run; everything else must agree.
      const strip = (text: string) =>
        text
          .replace(/req_[0-9a-f]{16}/g, 'req')
          .replaceAll(a.url, 'URL')
          .replaceAll(b.url, 'URL');
      for (const [method, path, body] of requests) {
        const ra = await api(a, method, path, { key: PRO, ...(body ? { body } : {}) });
        const rb = await api(b, method, path, { key: PRO, ...(body ? { body } : {}) });
        expect(ra.status, path).toBe(200);
        expect(strip(rb.text), path).toBe(strip(ra.text));
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
