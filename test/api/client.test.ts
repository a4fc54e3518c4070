import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthError,
  ConnectionError,
  InterruptedError,
  NewsClient,
  NotFoundError,
  PermissionError,
  PointsError,
  RateLimitError,
  ResponseError,
  ServerError,
  TEST_MODE_NOTICE,
  TimeoutError,
  ValidationError,
} from '../../src/api/index.js';
import type { ClientOptions, RetryInfo } from '../../src/api/index.js';
import { ScriptServer, closedPort, envelope, startServer } from './helpers/script-server.js';

const KEY = 'api_live_SeCrEt_4711';

let server: ScriptServer;
const clients: NewsClient[] = [];
let delays: number[];
let retries: RetryInfo[];

function client(options: Partial<ClientOptions> = {}): NewsClient {
  const c = new NewsClient({
    version: '9.8.7',
    apiKey: KEY,
    baseUrl: server.url,
    env: {},
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    onRetry: (info) => retries.push(info),
    ...options,
  });
  clients.push(c);
  return c;
}

/** The error a promise rejects with; fails the test when it resolves. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(Error);
    return err as Error;
  }
  throw new Error('expected a rejection');
}

function expectNoKey(err: Error): void {
  const text = `${err.message} ${(err as { hint?: string }).hint ?? ''} ${String(err.cause ?? '')} ${JSON.stringify(err)}`;
  expect(text).not.toContain(KEY);
}

beforeEach(async () => {
  server = await startServer();
  delays = [];
  retries = [];
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

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

describe('errors', () => {
  it('turns the error envelope into a typed error with code and request id', async () => {
    server.enqueue('/v1/people/99', {
      status: 404,
      json: envelope(404, 'ER0151', 'person not found', 'req-abc'),
    });
    const err = await failure(client().request({ method: 'GET', path: '/v1/people/99' }));
    expect(err).toBeInstanceOf(NotFoundError);
    const api = err as ApiError;
    expect(api.code).toBe('ER0151');
    expect(api.requestId).toBe('req-abc');
    expect(api.message).toBe('person not found');
    expect(api.status).toBe(404);
  });

  it('takes the request id from x-request-id when the envelope has none', async () => {
    server.enqueue('/v1/balance', {
      status: 400,
      headers: { 'x-request-id': 'hdr-1' },
      json: {
        status: 'not_ok',
        request_id: null,
        errors: [{ code: 'ER0201', message: 'key required' }],
      },
    });
    const err = (await failure(
      client().request({ method: 'GET', path: '/v1/balance' }),
    )) as ApiError;
    expect(err.requestId).toBe('hdr-1');
    expect(err.code).toBe('ER0201');
  });

  it('a non-JSON (HTML) error body still gives a clear error', async () => {
    server.enqueue('/v1/balance', {
      status: 418,
      headers: { 'content-type': 'text/html' },
      text: '<html><body><h1>teapot</h1></body></html>',
    });
    const err = await failure(client().request({ method: 'GET', path: '/v1/balance' }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe("HTTP 418 I'm a Teapot (non-JSON response)");
    expect(err.message).not.toContain('<html>');
  });

  it('a plain-text error body is quoted', async () => {
    server.enqueue('/v1/balance', { status: 400, text: 'bad things happened' });
    const err = await failure(client().request({ method: 'GET', path: '/v1/balance' }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe('HTTP 400 Bad Request: bad things happened');
  });

  it('a 2xx body that is not JSON is a ResponseError', async () => {
    server.enqueue('/v1/balance', {
      status: 200,
      headers: { 'content-type': 'text/html' },
      text: '<html>login</html>',
    });
    const err = await failure(client().request({ method: 'GET', path: '/v1/balance' }));
    expect(err).toBeInstanceOf(ResponseError);
    expect(err.message).toMatch(/not JSON \(text\/html\)/);
  });

  it('raw: true returns the untouched text', async () => {
    const text = '{"status":"ok",  "results":[]}\n';
    server.enqueue('/v1/news/everything', {
      text,
      headers: { 'content-type': 'application/json' },
    });
    const res = await client().request({
      method: 'POST',
      path: '/v1/news/everything',
      body: {},
      raw: true,
    });
    expect(res.body).toBe(text);
  });

  it('raw: true still throws typed errors', async () => {
    server.enqueue('/v1/balance', { status: 401, json: envelope(401, 'ER0201', 'bad key') });
    await expect(
      client().request({ method: 'GET', path: '/v1/balance', raw: true }),
    ).rejects.toBeInstanceOf(AuthError);
  });

  it('a server that never answers gives TimeoutError', async () => {
    server.enqueue('/v1/balance', { hang: true });
    const started = Date.now();
    const err = await failure(
      client({ timeoutMs: 200, retries: 0 }).request({ method: 'GET', path: '/v1/balance' }),
    );
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toBe(`no complete response from 127.0.0.1:${server.port} within 0.2 s`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a body that stalls half-way also times out', async () => {
    server.enqueue('/v1/news/everything', { stallAfter: '{"status":"ok","results":[' });
    const err = await failure(
      client({ timeoutMs: 200, retries: 0 }).request({
        method: 'POST',
        path: '/v1/news/everything',
        body: {},
      }),
    );
    expect(err).toBeInstanceOf(TimeoutError);
  });

  it('timeouts are retried for GET and reported after the last attempt', async () => {
    server.enqueue('/v1/balance', { hang: true });
    const err = await failure(
      client({ timeoutMs: 150, retries: 1 }).request({ method: 'GET', path: '/v1/balance' }),
    );
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toMatch(/after 2 attempts$/);
    expect(server.requests).toHaveLength(2);
    expect(retries[0]?.reason).toBe('timeout');
  });

  it('connection refused gives ConnectionError naming the host', async () => {
    const port = await closedPort();
    const err = await failure(
      client({ baseUrl: `http://127.0.0.1:${port}`, retries: 2 }).request({
        method: 'GET',
        path: '/ping',
      }),
    );
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toBe(
      `cannot connect to 127.0.0.1:${port} (connection refused) after 3 attempts`,
    );
    expect(delays).toHaveLength(2);
    expectNoKey(err);
  });

  it('connection refused in query mode never shows the key', async () => {
    const port = await closedPort();
    const err = await failure(
      client({ baseUrl: `http://127.0.0.1:${port}`, auth: 'query', retries: 0 }).request({
        method: 'GET',
        path: '/v1/balance',
      }),
    );
    expect(err).toBeInstanceOf(ConnectionError);
    expectNoKey(err);
  });

  it('the caller aborting an in-flight request gives InterruptedError', async () => {
    server.enqueue('/v1/balance', { hang: true });
    const controller = new AbortController();
    const pending = client().request({
      method: 'GET',
      path: '/v1/balance',
      signal: controller.signal,
    });
    await server.waitFor(() => true);
    controller.abort();
    const err = await failure(pending);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(delays).toEqual([]);
  });

  it('the client-wide signal cancels too', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      client({ signal: controller.signal }).request({ method: 'GET', path: '/v1/balance' }),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(server.requests).toHaveLength(0);
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
