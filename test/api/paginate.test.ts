import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NewsClient, ResponseError } from '../../src/api/index.js';
import type { SeenRequest } from './helpers/script-server.js';
import { type ScriptServer, startServer } from './helpers/script-server.js';

let server: ScriptServer;
let client: NewsClient;

/** A list endpoint with `total` records, answering any page/per_page from the body or the query. */
function serveList(path: string, total: number, opts: { hangOnPage?: number } = {}): void {
  server.handle(path, (req: SeenRequest) => {
    const source =
      req.method === 'GET' ? Object.fromEntries(req.query) : (req.json as Record<string, unknown>);
    const page = Number(source['page'] ?? 1);
    const perPage = Number(source['per_page'] ?? 10);
    if (page === opts.hangOnPage) return { hang: true };
    const first = (page - 1) * perPage;
    const ids = Array.from(
      { length: Math.max(0, Math.min(perPage, total - first)) },
      (_, i) => first + i + 1,
    );
    return {
      json: {
        status: 'ok',
        page,
        limit: perPage,
        has_next_pages: first + perPage < total,
        // Deliberately elsewhere: the client must not follow it.
        next_page: 'http://evil.example/steal',
        results: ids.map((id) => ({ id })),
      },
    };
  });
}

function pageOf(req: SeenRequest): number {
  return Number(
    req.method === 'GET' ? req.query.get('page') : (req.json as { page?: number }).page,
  );
}

beforeEach(async () => {
  server = await startServer();
  client = new NewsClient({ version: '0', apiKey: 'k', baseUrl: server.url, env: {}, retries: 0 });
});

afterEach(async () => {
  await client.close();
  await server.close();
});

describe('paginate', () => {
  it('follows has_next_pages with the same body and page incremented', async () => {
    serveList('/v1/news/everything', 25);
    const pages = [];
    for await (const page of client.paginate(
      {
        method: 'POST',
        path: '/v1/news/everything',
        body: { title: 'mars', 'language.code': 'en' },
      },
      { perPage: 10 },
    )) {
      pages.push({ page: page.page, ids: page.records.map((r) => r['id']) });
      expect(page.envelope['status']).toBe('ok');
      expect(page.response.status).toBe(200);
    }
    expect(pages).toEqual([
      { page: 1, ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
      { page: 2, ids: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20] },
      { page: 3, ids: [21, 22, 23, 24, 25] },
    ]);
    expect(server.requests.map((r) => r.json)).toEqual([
      { title: 'mars', 'language.code': 'en', page: 1, per_page: 10 },
      { title: 'mars', 'language.code': 'en', page: 2, per_page: 10 },
      { title: 'mars', 'language.code': 'en', page: 3, per_page: 10 },
    ]);
  });

  it('pages a GET list through the query string, from startPage', async () => {
    serveList('/v1/people', 30);
    const seen: number[] = [];
    for await (const page of client.paginate(
      { method: 'GET', path: '/v1/people', query: { name: 'ada' } },
      { startPage: 2, perPage: 10 },
    )) {
      seen.push(page.page);
    }
    expect(seen).toEqual([2, 3]);
    expect(
      server.requests.map((r) => [
        r.query.get('name'),
        r.query.get('page'),
        r.query.get('per_page'),
      ]),
    ).toEqual([
      ['ada', '2', '10'],
      ['ada', '3', '10'],
    ]);
  });

  it('placement overrides where paging goes', async () => {
    serveList('/v1/people', 5);
    const pages = client.paginate(
      { method: 'GET', path: '/v1/people' },
      { placement: 'query', perPage: 5 },
    );
    for await (const _ of pages) {
      // drain
    }
    expect(server.requests[0]?.query.get('per_page')).toBe('5');
  });

  it('limit stops across pages and truncates the last page', async () => {
    serveList('/v1/news/everything', 100);
    const ids: unknown[] = [];
    for await (const page of client.paginate(
      { method: 'POST', path: '/v1/news/everything', body: {} },
      { perPage: 10, limit: 23 },
    )) {
      ids.push(...page.records.map((r) => r['id']));
    }
    expect(ids).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    // Page 3 held the last records needed: no page 4 was asked for.
    expect(server.requests.map(pageOf)).toEqual([1, 2, 3]);
  });

  it('maxPages stops after that many pages', async () => {
    serveList('/v1/news/everything', 100);
    const seen: number[] = [];
    for await (const page of client.paginate(
      { method: 'POST', path: '/v1/news/everything', body: {} },
      { perPage: 10, maxPages: 2 },
    )) {
      seen.push(page.page);
    }
    expect(seen).toEqual([1, 2]);
    expect(server.requests).toHaveLength(2);
  });

  it('prefetches page N+1 while the consumer handles page N', async () => {
    serveList('/v1/news/everything', 30);
    const seen: number[] = [];
    for await (const page of client.paginate(
      { method: 'POST', path: '/v1/news/everything', body: {} },
      { perPage: 10 },
    )) {
      seen.push(page.page);
      if (page.page === 1) {
        // The consumer has not asked for page 2 yet, but the server already has the request.
        const early = await server.waitFor((r) => pageOf(r) === 2, 2000);
        expect(early.method).toBe('POST');
        // At most one page ahead.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(server.requests.map(pageOf)).toEqual([1, 2]);
      }
    }
    expect(seen).toEqual([1, 2, 3]);
  });

  it('breaking out of the loop aborts the in-flight prefetch', async () => {
    serveList('/v1/news/everything', 30, { hangOnPage: 2 });
    const started = Date.now();
    for await (const page of client.paginate(
      { method: 'POST', path: '/v1/news/everything', body: {} },
      { perPage: 10 },
    )) {
      expect(page.page).toBe(1);
      await server.waitFor((r) => pageOf(r) === 2);
      break;
    }
    expect(Date.now() - started).toBeLessThan(3000);
    const prefetch = server.requests.find((r) => pageOf(r) === 2);
    await expect.poll(() => prefetch?.aborted, { timeout: 2000 }).toBe(true);
  });

  it('the caller signal interrupts the iteration', async () => {
    serveList('/v1/news/everything', 30, { hangOnPage: 2 });
    const controller = new AbortController();
    const run = async (): Promise<void> => {
      for await (const page of client.paginate(
        { method: 'POST', path: '/v1/news/everything', body: {} },
        { perPage: 10, signal: controller.signal },
      )) {
        if (page.page === 1) setTimeout(() => controller.abort(), 20);
      }
    };
    await expect(run()).rejects.toMatchObject({ name: 'InterruptedError' });
  });

  it('an empty page that claims more does not loop forever', async () => {
    server.enqueue('/v1/people', { json: { has_next_pages: true, results: [] } });
    const seen: number[] = [];
    for await (const page of client.paginate({ method: 'GET', path: '/v1/people' }))
      seen.push(page.page);
    expect(seen).toEqual([1]);
  });

  it('a list cut short is told to onCut (the caller’s own ends are not), which may fail the run', async () => {
    const cuts: string[] = [];
    server.enqueue(
      '/v1/people',
      { json: { page: 1, has_next_pages: true, results: [{ id: 1 }] } },
      { json: { page: 2, has_next_pages: true, results: [] } },
    );
    const seen: number[] = [];
    for await (const page of client.paginate(
      { method: 'GET', path: '/v1/people' },
      { onCut: (reason) => cuts.push(reason) },
    ))
      seen.push(page.page);
    expect(seen).toEqual([1, 2]);
    expect(cuts).toEqual(['page 2 was empty but said more pages follow']);

    // The caller's last page, maxPages, limit: no cut.
    serveList('/v1/news/everything', 100);
    const body = { method: 'POST' as const, path: '/v1/news/everything', body: {} };
    for (const options of [{ maxPages: 2 }, { limit: 15 }, { lastPage: () => true }]) {
      for await (const _ of client.paginate(body, {
        perPage: 10,
        ...options,
        onCut: (r) => cuts.push(r),
      }))
        void _;
    }
    expect(cuts).toHaveLength(1);

    // Thrown from onCut: the pages before were handed over, then the run fails.
    server.handle('/v1/people', (req) => ({
      json: { page: 1, has_next_pages: true, results: [{ id: pageOf(req) }] },
    }));
    const handed: number[] = [];
    const failing = async (): Promise<void> => {
      for await (const page of client.paginate(
        { method: 'GET', path: '/v1/people' },
        {
          onCut: (reason) => {
            throw new Error(`cut: ${reason}`);
          },
        },
      ))
        handed.push(page.page);
    };
    await expect(failing()).rejects.toThrow('cut: page 2: the server answered page 1 again');
    expect(handed).toEqual([1]);
  });

  it('a body that is not a list envelope is a ResponseError', async () => {
    server.enqueue('/v1/people', { json: { results: 'nope' } });
    const run = async (): Promise<void> => {
      for await (const _ of client.paginate({ method: 'GET', path: '/v1/people' })) {
        // drain
      }
    };
    await expect(run()).rejects.toBeInstanceOf(ResponseError);
  });
});
