/**
 * Where the mock and the client used to mislead a user of the real
 * service. Each case runs over HTTP against the real mock and the committed
 * fixtures; the CLI cases run the whole command line in-process against it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../../src/mock/fixtures/types.js';
import type { MockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { PRO, api, ids, page, search, startConformanceServer } from '../mock/conformance-server.js';
import { assertMatches, expectEnvelope } from '../mock/server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startConformanceServer();
});
afterAll(() => server.close());

const cli = (argv: readonly string[]) =>
  runCli([...argv, '--base-url', server.url, '--api-key', PRO, '--retries', '0']);

const TEMPLATES: Record<string, string> = {
  category: '/v1/news/category/{taxonomy}/{categoryId}',
  topic: '/v1/news/topic/{topicId}',
  industry: '/v1/news/industry/{industryId}',
};

describe('classification and entity feeds', () => {
  it.each([
    ['/v1/news/topic/technology', 'malformed topic'],
    ['/v1/news/topic/economy.no-such-thing', 'unknown topic'],
    ['/v1/news/category/iptc_mediatopics/foo', 'malformed category'],
    ['/v1/news/category/iptc_mediatopics/99999999', 'unknown category'],
    ['/v1/news/category/iab/4000000', 'unknown taxonomy'],
    ['/v1/news/industry/abc', 'malformed industry'],
    ['/v1/news/industry/999999', 'unknown industry'],
    ['/v1/news/entity/abc', 'malformed entity'],
    ['/v1/news/entity/99999999', 'unknown entity'],
  ])('%s (%s) answers 404 with the error envelope', async (path) => {
    for (const method of ['GET', 'POST']) {
      const r = await api(server, method, path, {
        key: PRO,
        ...(method === 'POST' ? { body: {} } : {}),
      });
      expectEnvelope(r, 404);
    }
  });

  it('a known id still answers its articles, and only those', async () => {
    const cases: [string, (a: Article) => boolean][] = [
      [
        '/v1/news/category/iptc_mediatopics/4000000',
        (a) => a.categories.some((c) => c.id === 4000000),
      ],
      [
        '/v1/news/category/iptc_mediatopics/medtop:04000000',
        (a) => a.categories.some((c) => c.id === 4000000),
      ],
      [
        '/v1/news/topic/economy.inflation',
        (a) => a.topics.some((t) => t.id === 'economy.inflation'),
      ],
      ['/v1/news/industry/101', (a) => a.industries.some((i) => i.id === 101)],
    ];
    for (const [path, holds] of cases) {
      const r = await api(server, 'POST', path, { key: PRO, body: { per_page: 50 } });
      const body = page(r);
      expect(body.results.length, path).toBeGreaterThan(0);
      for (const a of body.results) expect(holds(a), `${path}: article ${a.id}`).toBe(true);
      assertMatches(TEMPLATES[path.split('/')[3]!]!, 'post', 200, body);
    }
  });

  it('the lenient rule stays for the search body: an invalid topic.id is not applied', async () => {
    const all = page(await search(server, { per_page: 5 }));
    const lenient = page(await search(server, { per_page: 5, 'topic.id': 'technology' }));
    expect(lenient.results.map((a) => a.id)).toEqual(all.results.map((a) => a.id));
  });
});

describe('trends needs field', () => {
  it('the mock answers 400 without field, and with a field it does not know', async () => {
    expectEnvelope(await api(server, 'POST', '/v1/news/trends', { key: PRO, body: {} }), 400);
    expectEnvelope(await api(server, 'GET', '/v1/news/trends', { key: PRO }), 400);
    expectEnvelope(
      await api(server, 'POST', '/v1/news/trends', { key: PRO, body: { field: 'nope' } }),
      400,
    );
    const ok = await api(server, 'POST', '/v1/news/trends', {
      key: PRO,
      body: { field: 'topic.id' },
    });
    expect(ok.status).toBe(200);
  });

  it('the client refuses it before sending', async () => {
    const r = await cli(['trends']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: trends needs --field/);
  });
});

describe('category ids in both forms', () => {
  it('the suggest answer is in the schema form (integer id) and resolves in the filter', async () => {
    const r = await api(server, 'GET', '/v1/suggest/categories?prefix=econ', { key: PRO });
    assertMatches('/v1/suggest/categories', 'get', 200, r.json);
    const [first] = r.json as { id: unknown }[];
    expect(first?.id).toBe(4000000);
    const everything = page(await search(server, { per_page: 100 })).results.length;
    for (const value of ['4000000', 'medtop:04000000', '04000000', 'medtop:4000000']) {
      const got = page(await search(server, { 'category.id': value, per_page: 100 }));
      expect(got.results.length, value).toBeGreaterThan(0);
      expect(got.results.length, value).toBeLessThanOrEqual(everything);
      for (const a of got.results) expect(a.categories.map((c) => c.id)).toContain(4000000);
    }
    // The two forms select the same articles.
    expect(ids(await search(server, { 'category.id': '4000000' }))).toEqual(
      ids(await search(server, { 'category.id': 'medtop:04000000' })),
    );
    // …and so does the query language.
    expect(ids(await search(server, { query: 'category.id:4000000' }))).toEqual(
      ids(await search(server, { 'category.id': 'medtop:04000000' })),
    );
  });

  it.each([
    [
      'categories',
      'econ',
      '--category-id',
      (a: Article, id: string) => a.categories.some((c) => String(c.id) === id),
    ],
    ['topics', 'infl', '--topic-id', (a: Article, id: string) => a.topics.some((t) => t.id === id)],
    [
      'industries',
      'bank',
      '--industry-id',
      (a: Article, id: string) => a.industries.some((i) => String(i.id) === id),
    ],
  ] as const)(
    'round trip: news suggest %s %s --ids → news search %s',
    async (kind, prefix, flag, holds) => {
      const suggested = await cli(['suggest', kind, prefix, '--ids']);
      expect(suggested.code, suggested.stderr).toBe(0);
      const id = suggested.stdout.trim().split('\n')[0]!;
      expect(id).not.toBe('');
      const found = await cli(['search', flag, id, '--per-page', '20', '-f', 'jsonl']);
      expect(found.code, found.stderr).toBe(0);
      const articles = found.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Article);
      expect(articles.length).toBeGreaterThan(0);
      for (const a of articles) expect(holds(a, id), `article ${a.id}`).toBe(true);
      // Excluding it leaves none of those articles.
      const ignored = await cli([
        'search',
        `--ignore-${flag.slice(2)}`,
        id,
        '--per-page',
        '50',
        '-f',
        'jsonl',
      ]);
      expect(ignored.code, ignored.stderr).toBe(0);
      for (const l of ignored.stdout.trim().split('\n'))
        expect(holds(JSON.parse(l) as Article, id)).toBe(false);
    },
  );

  it('the client normalises the number to the slug it sends, and still refuses nonsense', async () => {
    const dry = await cli(['search', '--category-id', '4000000,medtop:11000000', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout + dry.stderr).toContain('medtop:04000000,medtop:11000000');
    const bad = await cli(['search', '--category-id', 'sports']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --category-id each value must be an IPTC media topic/);
  });
});

describe('news article takes up to 100 ids', () => {
  it('the mock answers 100 ids, paged by per_page as the document says', async () => {
    const wanted = server.store.articles.slice(0, 100).map((a) => a.id);
    const all = page(
      await api(server, 'POST', '/v1/news/article', { key: PRO, body: { id: wanted.join(',') } }),
    );
    expect(all.results.map((a) => a.id)).toEqual(wanted);
    const first = page(
      await api(server, 'POST', '/v1/news/article', {
        key: PRO,
        body: { id: wanted.join(','), per_page: 30, page: 4 },
      }),
    );
    expect(first.results.map((a) => a.id)).toEqual(wanted.slice(90, 100));
    expect(first.has_next_pages).toBe(false);
    // A 101st id is dropped silently, like any list's extra values.
    const extra = [...wanted, server.store.articles[100]!.id];
    const capped = page(
      await api(server, 'POST', '/v1/news/article', { key: PRO, body: { id: extra.join(',') } }),
    );
    expect(capped.results.map((a) => a.id)).toEqual(wanted);
  });

  it('the CLI fetches all 100 through every page, even on a plan capped at 10 per page', async () => {
    const wanted = server.store.articles.slice(0, 100).map((a) => a.id);
    const r = await runCli([
      'article',
      wanted.join(','),
      '-f',
      'jsonl',
      '--base-url',
      server.url,
      '--api-key',
      'api_live_mock_free',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const got = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as Article).id);
    expect(got).toEqual(wanted);
  });
});

describe('entity sentiment score without a selector', () => {
  it('the mock applies it to any entity of the article (no ER0293)', async () => {
    const r = await search(server, { 'entity.sentiment.score.min': 0.5, per_page: 50 });
    const body = page(r);
    expect(body.results.length).toBeGreaterThan(0);
    for (const a of body.results)
      expect(
        a.entities.some((e) => e.sentiment.score >= 0.5),
        `article ${a.id}`,
      ).toBe(true);
    const max = page(await search(server, { 'entity.sentiment.score.max': -0.5, per_page: 50 }));
    for (const a of max.results)
      expect(a.entities.some((e) => e.sentiment.score <= -0.5)).toBe(true);
    // Polarity alone is still ER0293.
    expectEnvelope(
      await search(server, { 'entity.sentiment.polarity': 'positive' }),
      400,
      'ER0293',
    );
  });

  it('the client sends it, and still refuses polarity alone', async () => {
    const ok = await cli([
      'search',
      '--entity-sentiment-score-min',
      '0.5',
      '--per-page',
      '5',
      '-f',
      'jsonl',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const refused = await cli(['search', '--entity-sentiment-polarity', 'positive']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/ER0293/);
  });
});

describe('the names the document and README use', () => {
  it.each([
    ['New York', 'New York'],
    ['new york city', 'New York'],
    ['NYC', 'New York'],
    ['Sao Paulo', 'São Paulo'],
    ['São Paulo', 'São Paulo'],
  ])('location.name %j is known (no ER0218) and finds articles about %s', async (asked, entity) => {
    const body = page(await search(server, { 'location.name': asked, per_page: 20 }));
    expect(body.results.length).toBeGreaterThan(0);
    for (const a of body.results)
      expect(a.entities.some((e) => e.type === 'location' && e.name === entity)).toBe(true);
  });

  it('the document’s own examples answer 200 on the fixtures', async () => {
    for (const body of [
      { 'location.name': 'New York' },
      { 'person.name': 'Elon Musk' },
      { 'organization.name': 'Google' },
      { 'brand.name': 'Tesla' },
      { 'organization.name': 'Federal Reserve' },
    ]) {
      expect(
        page(await search(server, { ...body, per_page: 1 })).results.length,
        JSON.stringify(body),
      ).toBe(1);
    }
    expectEnvelope(await search(server, { 'location.name': 'Atlantis' }), 400, 'ER0218');
  });
});
