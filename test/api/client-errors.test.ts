// The client's typed errors for every kind of failure (split from client.test.ts).
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthError,
  ConnectionError,
  InterruptedError,
  NotFoundError,
  ResponseError,
  TimeoutError,
  ValidationError,
} from '../../src/api/index.js';
import { closedPort, envelope } from './helpers/script-server.js';
import {
  client,
  delays,
  expectNoKey,
  failure,
  retries,
  server,
  useClientHarness,
} from './helpers/client-harness.js';

useClientHarness();

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
