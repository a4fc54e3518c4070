/**
 * The mock's side of the fuzz suite: arbitrary bytes and bodies to every route of the
 * mock, the admin routes included, never get a 5xx, and the next ordinary
 * search still answers 200 (stored data cannot break a route). Raw sockets
 * carry request lines and headers the HTTP parser may refuse: those must get
 * an answer (400) and leave the server serving.
 *
 * Fixed seed; MOCK_FUZZ_RUNS (default 150) and MOCK_FUZZ_SEED change it.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { PRO, startConformanceServer } from '../mock/conformance-server.js';
import { call } from '../mock/server-helpers.js';
import { openapi } from '../helpers/spec.js';

const RUNS = Number(process.env['MOCK_FUZZ_RUNS'] ?? 150);
const SEED = Number(process.env['MOCK_FUZZ_SEED'] ?? 1_717);

const ADMIN_ROUTES = [
  '/__mock/articles',
  '/__mock/webhooks',
  '/__mock/webhooks/1/enable',
  '/__mock/deliveries',
  '/__mock/accounts',
];
const EXTRA_ROUTES = [
  '/v1/webhooks',
  '/v1/webhooks/1',
  '/v1/news/stream?timeout=0',
  '/v1/news/ws',
  '/nope',
  '/',
];

/** Every path of the document with its placeholders filled, plus the mock's own routes. */
function routes(): string[] {
  const fill = (p: string) =>
    p
      .replace('{taxonomy}', 'iptc_mediatopics')
      .replace('{categoryId}', '4000000')
      .replace('{topicId}', 'economy.inflation')
      .replace('{industryId}', '101')
      .replace(/\{[^}]+\}/g, '1');
  return [...Object.keys(openapi().paths).map(fill), ...ADMIN_ROUTES, ...EXTRA_ROUTES];
}

const bodies: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .array(
      fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
      {
        maxLength: 3,
      },
    )
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
  fc.constantFrom(
    '{"title": true}',
    '[{"entities": [{"id": 1, "name": {"x": 1}, "type": "person"}]}]',
    '{"published_at": "not a date"}',
    '[null, 1, "x"]',
    '{"url": 5, "filters": [], "api_key": "api_live_mock_pro"}',
    '{"url": "http://127.0.0.1:1/h", "filters": {"title": {"$gt": 1}}, "api_key": "api_live_mock_pro"}',
    '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    '{"a":',
  ),
);

const request = fc.record({
  // Weighted towards bodies and the admin routes, where stored data comes from.
  method: fc.oneof(
    { weight: 4, arbitrary: fc.constant('POST') },
    { weight: 3, arbitrary: fc.constantFrom('GET', 'PATCH', 'DELETE', 'PUT', 'HEAD') },
  ),
  route: fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...ADMIN_ROUTES) },
    { weight: 3, arbitrary: fc.constantFrom(...routes()) },
  ),
  query: fc.dictionary(
    fc.oneof(
      fc.constantFrom('page', 'per_page', 'prefix', 'title', 'id', 'field', 'webhook_id', 'fl'),
      fc.string({ maxLength: 8 }),
    ),
    fc.string({ maxLength: 20 }),
    { maxKeys: 3 },
  ),
  body: bodies,
  key: fc.constantFrom(
    PRO,
    'api_test_mock_basic',
    'api_live_mock_free',
    'api_live_mock_readonly',
    'nope',
    undefined,
  ),
  contentType: fc.constantFrom(
    'application/json',
    'text/plain',
    'application/octet-stream',
    undefined,
  ),
});

let server: MockServer;
beforeAll(async () => {
  server = await startConformanceServer({ rateLimits: false });
});
afterAll(() => server.close());

async function ordinarySearchStillWorks(): Promise<void> {
  const r = await call(server, 'POST', '/v1/news/everything', { key: PRO, body: { per_page: 5 } });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  const c = await call(server, 'POST', '/v1/news/count', { key: PRO, body: { title: 'the' } });
  expect(c.status, c.text.slice(0, 300)).toBe(200);
}

describe('mock fuzz: arbitrary requests to every route', () => {
  it('never answers 5xx, and an ordinary search still answers 200', async () => {
    let count = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const url = new URL(r.route, server.url);
        for (const [k, v] of Object.entries(r.query)) url.searchParams.append(k, v);
        const headers: Record<string, string> = {};
        if (r.key !== undefined) headers['x-api-key'] = r.key;
        if (r.contentType !== undefined) headers['content-type'] = r.contentType;
        const hasBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
        const res = await fetch(url, {
          method: r.method,
          headers,
          ...(hasBody ? { body: r.body as string } : {}),
          signal: AbortSignal.timeout(10_000),
        });
        const text = await res.text();
        expect(
          res.status,
          `${r.method} ${url.pathname}${url.search} ${String(r.body).slice(0, 200)} → ${text.slice(0, 200)}`,
        ).toBeLessThan(500);
        if (++count % 25 === 0) await ordinarySearchStillWorks();
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    await ordinarySearchStillWorks();
  });
});

describe('mock fuzz: bytes the HTTP parser may refuse', () => {
  const raw = (bytes: Buffer): Promise<string> =>
    new Promise((resolve) => {
      const socket = connect(server.port, server.host, () => socket.end(bytes));
      let got = '';
      socket.on('data', (c: Buffer) => {
        got += c.toString('latin1');
      });
      socket.on('close', () => resolve(got));
      socket.on('error', () => resolve(got));
      socket.setTimeout(3000, () => socket.destroy());
    });

  it('every request line gets an answer below 500 (or a closed socket for half a request), and serving goes on', async () => {
    const line = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('GET', 'POST', 'G\u0000T', 'BREW', ''),
          fc.oneof(
            fc.constantFrom('http://[::1', '//[', '/%', '/\u00ff', '*', '/v1/news/everything'),
            fc.string({ maxLength: 30 }),
          ),
          fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/9.9', 'HTTX', ''),
          fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }),
        )
        .map(([m, t, v, hs]) =>
          Buffer.from(`${m} ${t} ${v}\r\nHost: x\r\n${hs.join('\r\n')}\r\n\r\n`, 'latin1'),
        ),
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b)),
    );
    await fc.assert(
      fc.asyncProperty(line, async (bytes) => {
        const answer = await raw(bytes);
        const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
        if (status !== undefined) expect(Number(status), answer.slice(0, 200)).toBeLessThan(500);
      }),
      { numRuns: Math.ceil(RUNS / 2), seed: SEED },
    );
    await ordinarySearchStillWorks();
  });
});
