import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { call, startTestServer } from './server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const balance = async (key: string): Promise<number> =>
  ((await call(server, 'GET', '/v1/balance', { key })).json as { points: number }).points;

describe('mock server: points', () => {
  it('charges live keys what the engine reports, and says so in the headers', async () => {
    const before = await balance('api_live_mock_free');
    const r = await call(server, 'POST', '/v1/news/everything', {
      key: 'api_live_mock_free',
      body: {},
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-points-used')).toBe('1');
    expect(r.headers.get('x-points-remaining')).toBe(String(before - 1));
    expect(await balance('api_live_mock_free')).toBe(before - 1);
  });

  it('never charges test keys', async () => {
    const before = await balance('api_test_mock_basic');
    const r = await call(server, 'POST', '/v1/news/everything', {
      key: 'api_test_mock_basic',
      body: {},
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-points-used')).toBe('0');
    await call(server, 'GET', '/v1/people', { key: 'api_test_mock_basic' });
    await call(server, 'GET', '/v1/people/101', { key: 'api_test_mock_basic' });
    expect(await balance('api_test_mock_basic')).toBe(before);
  });

  it('charges 1 point for a directory list or profile with results, nothing for zero results', async () => {
    const key = 'api_live_mock_starter';
    const start = await balance(key);
    const empty = await call(server, 'GET', '/v1/people?name=zzz-nobody', { key });
    expect((empty.json as { results: unknown[] }).results).toEqual([]);
    expect(empty.headers.get('x-points-used')).toBe('0');
    expect(await balance(key)).toBe(start);
    const list = await call(server, 'GET', '/v1/companies?name=acme', { key });
    expect(list.headers.get('x-points-used')).toBe('1');
    const profile = await call(server, 'GET', '/v1/journalists/301', { key });
    expect(profile.headers.get('x-points-used')).toBe('1');
    const missing = await call(server, 'GET', '/v1/people/999999', { key });
    expect(missing.status).toBe(404);
    expect(await balance(key)).toBe(start - 2);
  });

  it('answers 402 (envelope, no code but the stream ER0301) before doing any work when the balance is 0', async () => {
    const key = 'api_live_mock_empty';
    for (const [method, path] of [
      ['POST', '/v1/news/everything'],
      ['GET', '/v1/news/count'],
      ['GET', '/v1/people'],
      ['GET', '/v1/companies/201'],
      ['GET', '/v1/news/stream'],
    ] as const) {
      const r = await call(server, method, path, { key });
      expect([path, r.status]).toEqual([path, 402]);
      const body = r.json as { status: string; errors: { status: number; code?: string }[] };
      expect(body.status).toBe('not_ok');
      expect(body.errors[0]?.status).toBe(402);
      // The stream has its own documented code for it (contract, "Streams").
      expect(body.errors[0]?.code).toBe(path === '/v1/news/stream' ? 'ER0301' : undefined);
      expect(r.headers.get('x-points-remaining')).toBe('0');
    }
    // Free calls still work: balance, reference data, suggest, webhooks.
    for (const path of [
      '/v1/balance',
      '/v1/news/event-types',
      '/v1/suggest/topics?prefix=e',
      '/v1/webhooks',
    ]) {
      expect([path, (await call(server, 'GET', path, { key })).status]).toEqual([path, 200]);
    }
  });

  it('lets the last point be spent, then refuses', async () => {
    const account = server.accounts.get('api_live_mock_basic')!;
    account.charge(account.points - 1);
    const last = await call(server, 'POST', '/v1/news/everything', { key: account.key });
    expect(last.status).toBe(200);
    expect(last.headers.get('x-points-remaining')).toBe('0');
    const refused = await call(server, 'POST', '/v1/news/everything', { key: account.key });
    expect(refused.status).toBe(402);
  });
});

describe('mock server: rate limit', () => {
  it('answers 429 with Retry-After once the window is full, and counts nothing more', async () => {
    const key = 'api_test_mock_basic';
    let last = await call(server, 'GET', '/v1/balance', { key });
    const limit = Number(last.headers.get('x-ratelimit-limit'));
    let remaining = Number(last.headers.get('x-ratelimit-remaining'));
    expect(limit).toBe(300);
    while (remaining > 0) {
      last = await call(server, 'GET', '/v1/balance', { key });
      remaining = Number(last.headers.get('x-ratelimit-remaining'));
    }
    const refused = await call(server, 'GET', '/v1/balance', { key });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-service-mode')).toBe('test');
    // Another key has its own window.
    expect((await call(server, 'GET', '/v1/balance', { key: 'api_live_mock_pro' })).status).toBe(
      200,
    );
  });
});
