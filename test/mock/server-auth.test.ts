import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ACCOUNTS } from '../../src/mock/accounts.js';
import type { MockServer } from '../../src/mock/server.js';
import {
  type ErrorEnvelope,
  assertMatches,
  call,
  expectEnvelope,
  startTestServer,
} from './server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Envelope = ErrorEnvelope;

describe('mock server: keys', () => {
  it.each(['header', 'bearer', 'query'] as const)('accepts the key sent by %s', async (via) => {
    const r = await call(server, 'GET', '/v1/balance', { key: 'api_live_mock_basic', via });
    expect(r.status).toBe(200);
    assertMatches('/v1/balance', 'GET', 200, r.json);
    expect(r.json).toEqual({ api_key: 'api_live_…asic', points: 100000, plan: 'basic' });
  });

  it('answers 401 ER0201 with the full envelope for a missing key', async () => {
    const r = await call(server, 'GET', '/v1/balance');
    expectEnvelope(r, 401, 'ER0201');
    assertMatches('/v1/balance', 'GET', 401, r.json);
    const body = r.json as Envelope;
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]?.links.about).toMatch(/^https:\/\//);
  });

  it('answers 401 ER0201 for an unknown key, whichever way it is sent', async () => {
    for (const via of ['header', 'bearer', 'query'] as const) {
      const r = await call(server, 'GET', '/v1/people', { key: 'api_live_nope', via });
      expect(r.status).toBe(401);
      expect((r.json as Envelope).errors[0]?.code).toBe('ER0201');
    }
  });

  it('prefers X-API-Key over Bearer over api_key, and checks only the winner', async () => {
    const url = '/v1/balance?api_key=api_live_mock_free';
    const both = await call(server, 'GET', url, {
      headers: { 'x-api-key': 'api_live_mock_pro', authorization: 'Bearer api_live_mock_starter' },
    });
    expect((both.json as { plan: string }).plan).toBe('professional');
    const bearer = await call(server, 'GET', url, {
      headers: { authorization: 'Bearer api_live_mock_starter' },
    });
    expect((bearer.json as { plan: string }).plan).toBe('starter');
    const badWinner = await call(server, 'GET', url, {
      headers: { 'x-api-key': 'api_live_wrong' },
    });
    expect(badWinner.status).toBe(401);
  });

  it('serves /ping without a key, as the JSON string pong', async () => {
    const r = await call(server, 'GET', '/ping');
    expect(r.status).toBe(200);
    expect(r.text).toBe('"pong"');
    assertMatches('/ping', 'GET', 200, r.json);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('mock server: headers on every answer', () => {
  it('sends x-service-mode on success and on errors, following the key', async () => {
    const cases: [string | undefined, string, number, string][] = [
      ['api_live_mock_pro', '/v1/balance', 200, 'live'],
      ['api_test_mock_basic', '/v1/balance', 200, 'test'],
      ['api_test_unknown', '/v1/balance', 401, 'test'],
      [undefined, '/v1/balance', 401, 'live'],
      ['api_test_mock_basic', '/v1/nowhere', 404, 'test'],
      ['api_live_mock_readonly', '/v1/people', 403, 'live'],
      [undefined, '/ping', 200, 'live'],
    ];
    for (const [key, path, status, mode] of cases) {
      const r = await call(server, 'GET', path, key === undefined ? {} : { key });
      expect([path, r.status]).toEqual([path, status]);
      expect(r.headers.get('x-service-mode')).toBe(mode);
    }
  });

  it('allows any origin and exposes the usage headers, on success and error', async () => {
    for (const r of [
      await call(server, 'GET', '/v1/balance', { key: 'api_live_mock_pro' }),
      await call(server, 'GET', '/v1/balance'),
      await call(server, 'GET', '/ping'),
    ]) {
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('access-control-expose-headers')).toContain('x-ratelimit-remaining');
      expect(r.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
    }
  });

  it('answers a preflight with 204 and cacheable CORS headers, without a key', async () => {
    const r = await call(server, 'OPTIONS', '/v1/news/everything', {
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, content-type',
      },
    });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-methods')).toContain('POST');
    expect(r.headers.get('access-control-allow-headers')).toContain('x-api-key');
    expect(r.headers.get('access-control-max-age')).toBe('86400');
    expect(r.headers.get('x-service-mode')).toBe('live');
  });

  it('sends rate-limit headers on every answer; a key’s remaining count goes down', async () => {
    const first = await call(server, 'GET', '/v1/balance', { key: 'api_live_mock_starter' });
    const second = await call(server, 'GET', '/v1/balance', { key: 'api_live_mock_starter' });
    expect(first.headers.get('x-ratelimit-limit')).toBe('1200');
    const remaining = (r: typeof first): number => Number(r.headers.get('x-ratelimit-remaining'));
    expect(remaining(second)).toBe(remaining(first) - 1);
    expect(Number(second.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    const test = await call(server, 'GET', '/v1/balance', { key: 'api_test_mock_basic' });
    const live = await call(server, 'GET', '/v1/balance', { key: 'api_live_mock_basic' });
    // Test keys are stricter than the live key of the same plan.
    expect(Number(test.headers.get('x-ratelimit-limit'))).toBeLessThan(
      Number(live.headers.get('x-ratelimit-limit')),
    );
    for (const r of [
      await call(server, 'GET', '/ping'),
      await call(server, 'GET', '/v1/balance'),
    ]) {
      expect(r.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(r.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    }
  });
});

describe('mock server: scopes', () => {
  it('lets the readonly key list webhooks and read its balance, nothing with data', async () => {
    const key = 'api_live_mock_readonly';
    expect((await call(server, 'GET', '/v1/webhooks', { key })).status).toBe(200);
    expect((await call(server, 'GET', '/v1/balance', { key })).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/v1/news/everything'],
      ['GET', '/v1/people'],
      ['GET', '/v1/suggest/topics?prefix=sc'],
      ['PATCH', '/v1/webhooks/1'],
      ['DELETE', '/v1/webhooks/1'],
    ] as const) {
      const r = await call(server, method, path, {
        key,
        ...(method === 'PATCH' ? { body: { status: 'paused' } } : {}),
      });
      expect([method, path, r.status]).toEqual([method, path, 403]);
      expect((r.json as Envelope).errors[0]?.message).toMatch(/scope/);
    }
  });

  it('gives every other fixture key all scopes', async () => {
    for (const account of FIXTURE_ACCOUNTS.filter((a) => a.key !== 'api_live_mock_readonly')) {
      const r = await call(server, 'GET', '/v1/suggest/topics?prefix=sc', { key: account.key });
      expect([account.key, r.status]).toEqual([account.key, 200]);
    }
  });
});

describe('mock server: requests', () => {
  it('answers unknown paths 404 and wrong methods 405 with the envelope', async () => {
    const missing = await call(server, 'GET', '/v1/nothing-here', { key: 'api_live_mock_pro' });
    expect(missing.status).toBe(404);
    expect((missing.json as Envelope).status).toBe('not_ok');
    const wrong = await call(server, 'DELETE', '/v1/balance', { key: 'api_live_mock_pro' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const r = await call(server, 'POST', '/v1/news/everything', {
      key: 'api_live_mock_pro',
      rawBody: '{"title": ',
    });
    expect(r.status).toBe(400);
    expect((r.json as Envelope).errors[0]?.message).toMatch(/not valid JSON/);
    const array = await call(server, 'POST', '/v1/news/everything', {
      key: 'api_live_mock_pro',
      body: [1],
    });
    expect(array.status).toBe(400);
  });

  it('refuses bodies over the limit with 413', async () => {
    const r = await call(server, 'POST', '/v1/news/everything', {
      key: 'api_live_mock_pro',
      rawBody: JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(r.status).toBe(413);
  });

  it('merges GET query and POST body on news paths, the body winning', async () => {
    const r = await call(
      server,
      'POST',
      '/v1/news/everything?language.code=en&language.code=fr&title=query',
      {
        key: 'api_live_mock_pro',
        body: { title: 'body' },
      },
    );
    expect(r.status).toBe(200);
    expect((r.json as { params: unknown }).params).toEqual({
      'language.code': 'en,fr',
      title: 'body',
    });
    const get = await call(server, 'GET', '/v1/news/top-headlines?title=Ada', {
      key: 'api_live_mock_pro',
      via: 'query',
    });
    expect((get.json as { params: unknown; path: string }).params).toEqual({ title: 'Ada' });
    expect((get.json as { path: string }).path).toBe('/v1/news/top-headlines');
  });

  it('maps the classification feeds onto search filters', async () => {
    const r = await call(server, 'GET', '/v1/news/category/iptc_mediatopics/4000000', {
      key: 'api_live_mock_pro',
    });
    expect((r.json as { params: unknown }).params).toEqual({ 'category.id': 'medtop:04000000' });
  });

  it('answers the WebSocket route with 426 and a clear message', async () => {
    const r = await call(server, 'GET', '/v1/news/ws', { key: 'api_live_mock_pro' });
    expect(r.status).toBe(426);
    expect((r.json as Envelope).errors[0]?.message).toMatch(/\/v1\/news\/stream/);
  });
});

describe('mock server: WebSocket upgrades', () => {
  it('answers an Upgrade: websocket request with 426 and the envelope', async () => {
    const { request } = await import('node:http');
    const url = new URL('/v1/news/stream', server.url);
    const answer = await new Promise<{ status: number; body: string; mode: string | undefined }>(
      (resolve, reject) => {
        const req = request(url, {
          headers: {
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-version': '13',
            'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
            'x-api-key': 'api_test_mock_basic',
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body,
              mode: res.headers['x-service-mode'] as string | undefined,
            }),
          );
        });
        req.on('upgrade', () => reject(new Error('the mock must not upgrade')));
        req.on('error', reject);
        req.end();
      },
    );
    expect(answer.status).toBe(426);
    expect(answer.mode).toBe('test');
    expect(JSON.parse(answer.body).errors[0].message).toMatch(/server-sent events/);
  });
});
