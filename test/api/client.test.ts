import { describe, expect, it } from 'vitest';
import {
  type ApiError,
  AuthError,
  ConnectionError,
  InterruptedError,
  NotFoundError,
  PermissionError,
  PointsError,
  RateLimitError,
  ServerError,
  TEST_MODE_NOTICE,
  ValidationError,
} from '../../src/api/index.js';
import { ScriptServer, closedPort, envelope } from './helpers/script-server.js';
import {
  KEY,
  client,
  delays,
  expectNoKey,
  failure,
  retries,
  server,
  useClientHarness,
} from './helpers/client-harness.js';

useClientHarness();

describe('authentication', () => {
  it('header: X-API-Key, nothing in the URL', async () => {
    server.enqueue('/v1/balance', { json: { points: 5 } });
    const res = await client().request<{ points: number }>({ method: 'GET', path: '/v1/balance' });
    expect(res.body.points).toBe(5);
    const [seen] = server.requests;
    expect(seen?.headers['x-api-key']).toBe(KEY);
    expect(seen?.headers['authorization']).toBeUndefined();
    expect(seen?.query.has('api_key')).toBe(false);
    expect(seen?.headers['user-agent']).toBe(`news-cli/9.8.7 (node ${process.version})`);
  });

  it('bearer: Authorization: Bearer', async () => {
    server.enqueue('/v1/balance', { json: {} });
    await client({ auth: 'bearer' }).request({ method: 'GET', path: '/v1/balance' });
    const [seen] = server.requests;
    expect(seen?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(seen?.headers['x-api-key']).toBeUndefined();
    expect(seen?.query.has('api_key')).toBe(false);
  });

  it('query: api_key in the URL, next to the other parameters', async () => {
    server.enqueue('/v1/people', { json: {} });
    await client({ auth: 'query' }).request({
      method: 'GET',
      path: '/v1/people',
      query: { name: 'Ada Lovelace', wikidata_id: undefined, ids: [1, 2, 3] },
    });
    const [seen] = server.requests;
    expect(seen?.query.get('api_key')).toBe(KEY);
    expect(seen?.query.get('name')).toBe('Ada Lovelace');
    expect(seen?.query.get('ids')).toBe('1,2,3');
    expect(seen?.query.has('wikidata_id')).toBe(false);
    expect(seen?.headers['x-api-key']).toBeUndefined();
    expect(seen?.headers['authorization']).toBeUndefined();
  });

  it('POST sends the JSON body', async () => {
    server.enqueue('/v1/news/everything', { json: { results: [] } });
    await client().request({
      method: 'POST',
      path: '/v1/news/everything',
      body: { title: 'x', per_page: 5 },
    });
    const [seen] = server.requests;
    expect(seen?.method).toBe('POST');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.json).toEqual({ title: 'x', per_page: 5 });
  });

  it('keeps a path prefix of the base URL', async () => {
    server.enqueue('/gw/ping', { json: 'pong' });
    const res = await client({ baseUrl: `${server.url}/gw/` }).request({
      method: 'GET',
      path: '/ping',
    });
    expect(res.body).toBe('pong');
  });

  it('a 401 in query mode never shows the key, even when the server echoes it', async () => {
    server.enqueue('/v1/balance', {
      status: 401,
      json: envelope(401, 'ER0201', `invalid api key ${KEY}`),
    });
    const err = await failure(
      client({ auth: 'query' }).request({ method: 'GET', path: '/v1/balance' }),
    );
    expect(err).toBeInstanceOf(AuthError);
    expect(err.message).toBe('invalid api key ***');
    expectNoKey(err);
    expect((err as ApiError).details[0]?.message).not.toContain(KEY);
  });
});

describe('retries', () => {
  for (const status of [500, 502, 503, 504, 408]) {
    it(`retries GET on ${status}`, async () => {
      server.enqueue('/v1/balance', { status, text: 'oops' }, { json: { ok: 1 } });
      const res = await client().request({ method: 'GET', path: '/v1/balance' });
      expect(res.body).toEqual({ ok: 1 });
      expect(res.attempts).toBe(2);
      expect(server.requests).toHaveLength(2);
      // Full jitter with random() = 0.5 on the first step of 1 s.
      expect(delays).toEqual([500]);
      expect(retries).toEqual([{ attempt: 1, delayMs: 500, reason: `HTTP ${status}`, status }]);
    });
  }

  it('backs off exponentially and gives up after the configured retries', async () => {
    server.enqueue('/v1/balance', { status: 503, json: envelope(503, 'ER0500', 'busy') });
    const err = await failure(
      client({ random: () => 0.999 }).request({ method: 'GET', path: '/v1/balance' }),
    );
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ApiError).status).toBe(503);
    expect(server.requests).toHaveLength(4);
    expect(delays).toEqual([999, 1998, 3996]);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3]);
  });

  it('caps the exponential step at maxRetryDelayMs', async () => {
    server.enqueue('/v1/balance', { status: 500 });
    await failure(
      client({ random: () => 0.999, retries: 5, maxRetryDelayMs: 3000 }).request({
        method: 'GET',
        path: '/v1/balance',
      }),
    );
    expect(delays).toEqual([999, 1998, 2997, 2997, 2997]);
  });

  it('retries 0 disables retrying', async () => {
    server.enqueue('/v1/balance', { status: 502 });
    await failure(client({ retries: 0 }).request({ method: 'GET', path: '/v1/balance' }));
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('honours Retry-After in seconds on 429', async () => {
    server.enqueue(
      '/v1/news/everything',
      { status: 429, headers: { 'retry-after': '7' } },
      { json: { results: [] } },
    );
    await client().request({ method: 'POST', path: '/v1/news/everything', body: {} });
    expect(delays).toEqual([7000]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const now = Date.parse('2025-03-01T12:00:00Z');
    server.enqueue(
      '/v1/balance',
      { status: 503, headers: { 'retry-after': 'Sat, 01 Mar 2025 12:00:04 GMT' } },
      { json: {} },
    );
    await client({ now: () => now }).request({ method: 'GET', path: '/v1/balance' });
    expect(delays).toEqual([4000]);
  });

  it('waits for the rate-limit reset when remaining is 0', async () => {
    const now = 1_750_000_000_000;
    server.enqueue(
      '/v1/balance',
      {
        status: 429,
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 12) },
      },
      { json: {} },
    );
    await client({ now: () => now }).request({ method: 'GET', path: '/v1/balance' });
    expect(delays).toEqual([12000]);
  });

  it('gives up with the typed error when the server asks for more than the cap', async () => {
    server.enqueue('/v1/balance', {
      status: 429,
      headers: { 'retry-after': '3600' },
      json: envelope(429, 'ER0429', 'slow down'),
    });
    const err = await failure(client().request({ method: 'GET', path: '/v1/balance' }));
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as ApiError).retryAfter).toBe(3600);
    expect((err as ApiError).hint).toMatch(/3600 s/);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  const noRetry: [number, new (...args: never[]) => ApiError][] = [
    [400, ValidationError],
    [401, AuthError],
    [402, PointsError],
    [403, PermissionError],
    [404, NotFoundError],
  ];
  for (const [status, Kind] of noRetry) {
    it(`never retries ${status}`, async () => {
      server.enqueue(
        '/v1/balance',
        { status, json: envelope(status, 'ER0999', 'no') },
        { json: {} },
      );
      const err = await failure(client().request({ method: 'GET', path: '/v1/balance' }));
      expect(err).toBeInstanceOf(Kind);
      expect(server.requests).toHaveLength(1);
      expect(delays).toEqual([]);
    });
  }

  it('does not retry a PATCH on 502', async () => {
    server.enqueue('/v1/webhooks/7', { status: 502 }, { json: {} });
    const err = await failure(
      client().request({ method: 'PATCH', path: '/v1/webhooks/7', body: { status: 'paused' } }),
    );
    expect(err).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a DELETE after a dropped connection (it may have been applied)', async () => {
    server.enqueue('/v1/webhooks/7', { destroy: true }, { json: {} });
    const err = await failure(client().request({ method: 'DELETE', path: '/v1/webhooks/7' }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a GET after a dropped connection (socket hang up)', async () => {
    server.enqueue('/v1/balance', { destroy: true }, { json: { ok: true } });
    const res = await client().request({ method: 'GET', path: '/v1/balance' });
    expect(res.body).toEqual({ ok: true });
    expect(retries[0]?.reason).toBe('socket hang up');
  });

  it('retries a DELETE when the connection was refused (provably not sent)', async () => {
    const port = await closedPort();
    const late = new ScriptServer();
    let started = false;
    const c = client({
      baseUrl: `http://127.0.0.1:${port}`,
      // The "wait" brings the server up on the refused port.
      sleep: async (ms) => {
        delays.push(ms);
        if (!started) {
          started = true;
          await late.start(port);
          late.enqueue('/v1/webhooks/3', { status: 204 });
        }
      },
    });
    try {
      const res = await c.request({ method: 'DELETE', path: '/v1/webhooks/3' });
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
      expect(retries[0]?.reason).toBe('connection refused');
      expect(late.requests.map((r) => r.method)).toEqual(['DELETE']);
    } finally {
      await late.close();
    }
  });

  it('an abort during the backoff wait ends with InterruptedError', async () => {
    server.enqueue('/v1/balance', { status: 503, headers: { 'retry-after': '20' } });
    const controller = new AbortController();
    const c = client({ sleep: undefined, onRetry: () => setTimeout(() => controller.abort(), 20) });
    const started = Date.now();
    const err = await failure(
      c.request({ method: 'GET', path: '/v1/balance', signal: controller.signal }),
    );
    expect(err).toBeInstanceOf(InterruptedError);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('response metadata', () => {
  it('exposes rate-limit, points and request id headers', async () => {
    const now = 1_750_000_000_000;
    server.enqueue('/v1/balance', {
      json: { ok: 1 },
      headers: {
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '42',
        'x-ratelimit-reset': '30',
        'x-points-used': '1',
        'x-points-remaining': '999',
        'x-request-id': 'rid-9',
        'x-service-mode': 'live',
      },
    });
    const res = await client({ now: () => now }).request({ method: 'GET', path: '/v1/balance' });
    expect(res.rateLimit).toEqual({
      limit: 100,
      remaining: 42,
      reset: 30,
      resetAt: new Date(now + 30_000),
    });
    expect(res.usage).toEqual({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '42',
      'x-ratelimit-reset': '30',
      'x-points-used': '1',
      'x-points-remaining': '999',
      'x-request-id': 'rid-9',
    });
    expect(res.requestId).toBe('rid-9');
    expect(res.mode).toBe('live');
  });

  it('test mode: one notice per client, whichever header says it', async () => {
    server.enqueue('/v1/balance', { json: {}, headers: { 'x-service-mode': 'test' } });
    server.enqueue('/ping', { json: 'pong', headers: { 'X-Apitube-Mode': 'test' } });
    const notices: string[] = [];
    const c = client({ onNotice: (m) => notices.push(m) });
    const a = await c.request({ method: 'GET', path: '/v1/balance' });
    await c.request({ method: 'GET', path: '/v1/balance' });
    await c.request({ method: 'GET', path: '/ping' });
    expect(a.mode).toBe('test');
    expect(notices).toEqual([TEST_MODE_NOTICE]);

    const other: string[] = [];
    const b = await client({ onNotice: (m) => other.push(m) }).request({
      method: 'GET',
      path: '/ping',
    });
    expect(b.mode).toBe('test');
    expect(other).toEqual([TEST_MODE_NOTICE]);
  });

  it('live mode: no notice', async () => {
    server.enqueue('/v1/balance', { json: {}, headers: { 'x-service-mode': 'live' } });
    const notices: string[] = [];
    await client({ onNotice: (m) => notices.push(m) }).request({
      method: 'GET',
      path: '/v1/balance',
    });
    expect(notices).toEqual([]);
  });
});
