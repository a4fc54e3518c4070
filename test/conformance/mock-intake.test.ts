/**
 * The mock's side of fidelity and hardening: posted articles are checked against the
 * document's article schema, bounded in depth and number, and can never break
 * a later search; an unreadable request gets a 400 and the server keeps
 * serving; rate limits can be lifted for load tests.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_POSTED_ARTICLES } from '../../src/mock/article-intake.js';
import { MAX_JSON_DEPTH } from '../../src/mock/json-limits.js';
import type { MockServer } from '../../src/mock/server.js';
import {
  FREE,
  PRO,
  api,
  page,
  search,
  startConformanceServer,
} from '../mock/conformance-server.js';
import { call, expectEnvelope } from '../mock/server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startConformanceServer();
});
afterAll(() => server.close());

/** Every route a stored article reaches answers 200. */
async function everyRouteStillAnswers(): Promise<void> {
  const checks: [string, string, unknown][] = [
    ['POST', '/v1/news/everything', { title: 'mock', per_page: 5 }],
    ['POST', '/v1/news/everything', { per_page: 5, 'sort.by': 'relevance' }],
    ['POST', '/v1/news/top-headlines', {}],
    ['POST', '/v1/news/count', {}],
    ['POST', '/v1/news/trends', { field: 'entity.id' }],
    ['POST', '/v1/news/local', { lat: 40.7, lng: -74 }],
    ['POST', '/v1/news/everything', { facet: 1, 'facet.field': 'category.id,entity.id' }],
    ['GET', '/v1/people?per_page=5', undefined],
  ];
  for (const [method, path, body] of checks) {
    const r = await api(server, method, path, {
      key: PRO,
      ...(body === undefined ? {} : { body }),
    });
    expect(r.status, `${method} ${path}: ${r.text.slice(0, 200)}`).toBe(200);
  }
}

const post = (body: unknown) => call(server, 'POST', '/__mock/articles', { body });

describe('POST /__mock/articles checks what it stores', () => {
  it.each([
    [{ title: true }, 'title'],
    [{ title: 'ok', body: 5 }, 'body'],
    [{ published_at: 7 }, 'published_at'],
    [{ entities: [{ id: 5, name: 7, type: 'person' }] }, 'entities.0.name'],
    [{ entities: [{ id: 5, name: 'X', type: 'wizard' }] }, 'entities.0.type'],
    [{ entities: 'Ada' }, 'entities'],
    [{ categories: [{ id: 'medtop:1', name: 'x' }] }, 'categories.0.id'],
    [{ sentiment: { overall: { score: 4, polarity: 'positive' } } }, 'sentiment.overall.score'],
    [{ source: { rankings: {} } }, 'source.rankings.opr'],
    [{ media: [{ url: 'u', type: 'image', width: -1 }] }, 'media.0.width'],
    [{ id: 'abc' }, 'id'],
    [{ is_breaking: 'yes' }, 'is_breaking'],
    [
      { locations_mentioned: [{ name: 'X', country: 'US', lat: 500, lng: 0, type: 'city' }] },
      'locations_mentioned.0.lat',
    ],
  ])('refuses %j with 400 naming %s, and stores nothing', async (article, field) => {
    const before = server.store.articles.length;
    const r = await post([{ title: 'a fine article' }, article]);
    expectEnvelope(r, 400);
    const message = (r.json as { errors: { message: string }[] }).errors[0]!.message;
    expect(message).toContain(`Article 1: ${field}`);
    expect(server.store.articles.length).toBe(before);
  });

  it('keeps accepting partial articles and completes them field by field', async () => {
    const r = await post({
      title: 'Partial mock article about lighthouses',
      sentiment: { overall: { score: 0.5, polarity: 'positive' } },
      source: { domain: 'lighthouse.example' },
      entities: [{ id: 990001, name: 'Lighthouse Keeper Guild', type: 'organization' }],
      categories: [{ id: 4000000, name: 'economy' }],
      title_null_ok: null,
    });
    expect(r.status, r.text).toBe(201);
    const found = page(await search(server, { title: 'lighthouses', 'category.id': '4000000' }));
    expect(found.results).toHaveLength(1);
    const [a] = found.results;
    expect(a!.source.domain).toBe('lighthouse.example');
    expect(a!.source.rankings.opr).toEqual(expect.any(Number));
    expect(a!.sentiment.title.polarity).toBe('neutral');
    expect(a!.entities[0]!.links.self).toBe('/v1/news/entity/990001');
    const feed = await api(server, 'POST', '/v1/news/entity/990001', { key: PRO, body: {} });
    expect(page(feed).results.map((x) => x.id)).toEqual([a!.id]);
    await everyRouteStillAnswers();
  });

  it('accepts the nulls the document allows', async () => {
    const r = await post({ title: null, description: null, href: null, published_at: null });
    expect(r.status, r.text).toBe(201);
    await everyRouteStillAnswers();
  });

  it(`refuses data nested deeper than ${MAX_JSON_DEPTH} levels with 400 naming the limit`, async () => {
    // Written as text: JSON.stringify itself cannot nest 10,000 levels.
    const deep = `${'['.repeat(10_000)}"x"${']'.repeat(10_000)}`;
    const r = await call(server, 'POST', '/__mock/articles', {
      rawBody: `[{"title":"deep","keywords":${deep}}]`,
    });
    expectEnvelope(r, 400);
    expect(r.text).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    // Every other route is bounded the same way.
    const nested = await api(server, 'POST', '/v1/news/everything', {
      key: PRO,
      rawBody: `{"title":${deep}}`,
    });
    expectEnvelope(nested, 400);
    await everyRouteStillAnswers();
  });

  it(`refuses more than ${MAX_POSTED_ARTICLES} articles in one request with 413 naming the limit`, async () => {
    const r = await post(Array.from({ length: MAX_POSTED_ARTICLES + 1 }, () => ({})));
    expectEnvelope(r, 413);
    expect(r.text).toContain(`At most ${MAX_POSTED_ARTICLES} articles`);
  });

  it('an unknown top-level field of any shape is kept and breaks nothing', async () => {
    const r = await post({ title: 'odd extras', extra: { a: [1, { b: null }] }, toLowerCase: 5 });
    expect(r.status, r.text).toBe(201);
    await everyRouteStillAnswers();
  });
});

describe('a request the HTTP parser cannot read', () => {
  const raw = (text: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const socket = connect(server.port, server.host, () => socket.write(text));
      let got = '';
      socket.on('data', (c: Buffer) => {
        got += c.toString('latin1');
        if (got.includes('\r\n\r\n') && /content-length: (\d+)/i.test(got)) {
          const length = Number(/content-length: (\d+)/i.exec(got)![1]);
          if (got.length - got.indexOf('\r\n\r\n') - 4 >= length) socket.destroy();
        }
      });
      socket.on('close', () => resolve(got));
      socket.on('error', reject);
      socket.setTimeout(5000, () =>
        socket.destroy(new Error(`no answer to ${JSON.stringify(text)}`)),
      );
    });

  it.each([
    'GET http://[::1 HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET //[ HTTP/1.1\r\nHost: x\r\n\r\n',
    'GARBAGE\u0001 / HTTP/1.1\r\n\r\n',
    'GET / HTTP/1.1\r\nBad Header\r\n\r\n',
    'GET / HTTP/9.9\r\n\r\n',
  ])('%j gets a 400 with the error envelope, and the server keeps serving', async (text) => {
    const answer = await raw(text);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { status: string };
    expect(body.status).toBe('not_ok');
    expect(answer.toLowerCase()).toContain('access-control-allow-origin: *');
    expect((await search(server, { per_page: 1 })).status).toBe(200);
  });
});

describe('rate limits can be lifted for load tests', () => {
  it('with rateLimits: false no 429 ever comes, and the headers still report the plan', async () => {
    const unlimited = await startConformanceServer({ rateLimits: false });
    const limited = await startConformanceServer();
    try {
      const burst = async (s: MockServer) => {
        const statuses: number[] = [];
        for (let i = 0; i < 330; i += 30) {
          const batch = await Promise.all(
            Array.from({ length: 30 }, () =>
              call(s, 'GET', '/v1/news/count', { key: FREE }).then((r) => r.status),
            ),
          );
          statuses.push(...batch);
        }
        return statuses;
      };
      const free = await burst(limited);
      expect(free).toContain(429);
      const lifted = await burst(unlimited);
      expect(lifted.every((s) => s === 200)).toBe(true);
      const r = await call(unlimited, 'GET', '/v1/news/count', { key: FREE });
      expect(r.headers.get('x-ratelimit-limit')).toBe('300');
    } finally {
      await Promise.all([unlimited.close(), limited.close()]);
    }
  });
});
