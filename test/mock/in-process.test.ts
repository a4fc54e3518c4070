/**
 * The in-process mock of `--mock` (src/mock/in-process.ts): the client's own
 * requests through an undici dispatcher into the mock's pipeline, no socket.
 * It must answer what the HTTP server answers, byte for byte apart from the
 * request id and the server's own URL, and behave like a network where the
 * scenarios say so (a reset connection, an answer that never comes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewsClient } from '../../src/api/client.js';
import { ApiError, ConnectionError, TimeoutError } from '../../src/api/errors.js';
import {
  IN_PROCESS_ORIGIN,
  type InProcessMock,
  startInProcessMock,
} from '../../src/mock/in-process.js';
import type { MockServer } from '../../src/mock/server.js';
import { NOW, PRO, startConformanceServer } from './conformance-server.js';
import { call } from './server-helpers.js';

let server: MockServer;
let mock: InProcessMock;
beforeAll(async () => {
  server = await startConformanceServer();
  mock = await startInProcessMock({ quiet: true, now: NOW, timeScale: 1e9 });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const client = (options: { timeoutMs?: number; retries?: number } = {}) =>
  new NewsClient({
    version: 'test',
    apiKey: PRO,
    baseUrl: mock.url,
    dispatcher: mock.dispatcher,
    retries: options.retries ?? 0,
    timeoutMs: options.timeoutMs ?? 10_000,
    paceRateLimit: false,
  });

/** The answer without what differs between two mocks by design: request ids and base URLs. */
const comparable = (text: string, base: string): string =>
  text.replaceAll(base, 'BASE').replace(/req_[0-9a-f]{16}/g, 'REQ');

describe('the in-process mock', () => {
  it.each([
    ['POST', '/v1/news/everything', { title: 'rate', per_page: 10, hl: 1 }],
    ['POST', '/v1/news/everything', { 'language.code': 'de', 'sort.by': 'engagement' }],
    ['POST', '/v1/news/everything', { 'facet.field': 'source.id', per_page: 3 }],
    ['POST', '/v1/news/count', { 'language.code': 'en' }],
    ['POST', '/v1/news/trends', { field: 'topic.id' }],
    ['GET', '/v1/people', undefined],
    ['GET', '/v1/companies', undefined],
    ['POST', '/v1/news/everything', { 'category.id': 'nonsense!', 'source.domain': '*.com' }],
  ] as const)('%s %s answers as the HTTP server does', async (method, path, body) => {
    const over = await call(server, method, path, { key: PRO, body });
    expect(over.status).toBe(200);
    const response = await client().request<string>({
      method,
      path,
      raw: true,
      ...(body === undefined ? {} : { body }),
    });
    expect(comparable(response.body, IN_PROCESS_ORIGIN)).toBe(comparable(over.text, server.url));
  });

  it('answers errors in the same envelope, with the status the client reads', async () => {
    const error = await client()
      .request({
        method: 'POST',
        path: '/v1/news/everything',
        body: { 'location.name': 'Atlantis' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).code).toBe('ER0218');
  });

  /** A request straight to the dispatcher, as undici's request() makes it. */
  const direct = (headers: Record<string, string>, signal?: AbortSignal) =>
    mock.dispatcher.request({
      origin: mock.url,
      path: '/v1/news/everything',
      method: 'GET',
      headers: { 'x-api-key': PRO, ...headers },
      ...(signal === undefined ? {} : { signal }),
    });

  it('cuts the connection on X-Mock-Scenario: reset, as a network would', async () => {
    const error = await direct({ 'x-mock-scenario': 'reset' }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('ECONNRESET');
  });

  it('never answers X-Mock-Scenario: timeout; the client abort ends the wait', async () => {
    const controller = new AbortController();
    const pending = direct({ 'x-mock-scenario': 'timeout' }, controller.signal).catch(
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 100));
    controller.abort(new Error('deadline'));
    expect(String(await pending)).toMatch(/deadline/);
  });

  it('gives the client a TimeoutError when its deadline passes', async () => {
    // `slow` waits 2 s × the time scale (1: no frozen clock here).
    const slow = await startInProcessMock({ quiet: true, now: NOW, latencyMs: 2000 });
    try {
      const error = await new NewsClient({
        version: 'test',
        apiKey: PRO,
        baseUrl: slow.url,
        dispatcher: slow.dispatcher,
        retries: 0,
        timeoutMs: 200,
      })
        .request({ method: 'GET', path: '/v1/news/everything' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
    } finally {
      await slow.close();
    }
  });

  it('refuses the server-sent events stream, which needs a connection', async () => {
    const error = await client()
      .request({ method: 'GET', path: '/v1/news/stream' })
      .catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(501);
  });

  it('starts nothing a one-shot command does not use: no journal, no dispatcher, no publisher', async () => {
    const fresh = await startInProcessMock({ quiet: true, now: NOW });
    try {
      const c = new NewsClient({
        version: 'test',
        apiKey: PRO,
        baseUrl: fresh.url,
        dispatcher: fresh.dispatcher,
      });
      await c.request({ method: 'POST', path: '/v1/news/count', body: { 'language.code': 'en' } });
      expect(fresh.app.started).toEqual({ journal: false, dispatcher: false, publisher: false });
    } finally {
      await fresh.close();
    }
  });

  it('ends a request still waiting when it closes', async () => {
    const fresh = await startInProcessMock({ quiet: true, now: NOW, latencyMs: 5000 });
    const c = new NewsClient({
      version: 'test',
      apiKey: PRO,
      baseUrl: fresh.url,
      dispatcher: fresh.dispatcher,
      retries: 0,
    });
    const pending = c
      .request({ method: 'GET', path: '/v1/news/everything' })
      .catch((e: unknown) => e);
    // Before the answer: the search waits for the latency below.
    await fresh.close();
    expect(await pending).toBeInstanceOf(ConnectionError);
  });
});
