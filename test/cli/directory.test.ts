import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { apiFlags, useRecordingServer } from '../helpers/recording-server.js';
import { PROFILE, person } from './profile-fixture.js';

const server = useRecordingServer();
const api = () => apiFlags(server);

beforeEach(() => {
  server.respondWith((req) => {
    const url = new URL(req.url, 'http://x');
    if (/^\/v1\/(people|companies|journalists)\/\d+$/.test(url.pathname)) {
      if (url.pathname.endsWith('/404')) {
        return {
          status: 404,
          body: {
            status: 'not_ok',
            request_id: 'req-9',
            errors: [{ status: 404, code: 'ER0151', message: 'Person 404 not found.' }],
          },
        };
      }
      return { body: PROFILE };
    }
    const page = Number(url.searchParams.get('page') ?? 1);
    return {
      body: {
        status: 'ok',
        limit: 2,
        page,
        has_next_pages: page < 2,
        results: [person(page * 10 + 1, `P${page}a`), person(page * 10 + 2, `P${page}b`)],
      },
    };
  });
});

describe('people, companies, journalists: the list', () => {
  it('GETs /v1/people with name, wikidata_id and paging in the query', async () => {
    const r = await runCli([
      'people',
      ...api(),
      '--name',
      'ada',
      '--wikidata-id',
      'Q42',
      '--per-page',
      '2',
      '-f',
      'json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    const url = new URL(req.url, 'http://x');
    expect(url.pathname).toBe('/v1/people');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      name: 'ada',
      wikidata_id: 'Q42',
      page: '1',
      per_page: '2',
    });
    expect(req.body).toBeUndefined();
    expect(JSON.parse(r.stdout).map((p: { id: number }) => p.id)).toEqual([11, 12]);
  });

  it('--all pages through the query string; csv has the person columns', async () => {
    const r = await runCli(['companies', ...api(), '--all', '-f', 'csv']);
    expect(r.code).toBe(0);
    expect(server.requests.map((q) => new URL(q.url, 'http://x').pathname)).toEqual([
      '/v1/companies',
      '/v1/companies',
    ]);
    expect(server.requests.map((q) => new URL(q.url, 'http://x').searchParams.get('page'))).toEqual(
      ['1', '2'],
    );
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]!.split(',').slice(0, 3)).toEqual(['id', 'name', 'type']);
    expect(lines).toHaveLength(5);
  });

  it('--limit stops across pages', async () => {
    const r = await runCli([
      'journalists',
      ...api(),
      '--limit',
      '3',
      '--per-page',
      '2',
      '-f',
      'jsonl',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(new URL(server.requests[0]!.url, 'http://x').pathname).toBe('/v1/journalists');
  });

  it.each([
    [['people', '--per-page', '251'], /--per-page must be an integer from 1 to 250/],
    [['people', '--wikidata-id', 'X42'], /--wikidata-id must be a Wikidata id/],
    [['journalists', '--wikidata-id', 'Q42'], /unknown option '--wikidata-id'/],
  ])('%s is refused before sending', async (argv, message) => {
    const r = await runCli([...argv, ...api()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(server.requests).toHaveLength(0);
  });
});

describe('people get ID', () => {
  it('GETs the profile and prints the JSON object off a terminal', async () => {
    const r = await runCli(['people', 'get', '42', ...api()]);
    expect(r.code).toBe(0);
    expect(server.requests[0]!.url).toBe('/v1/people/42');
    expect(JSON.parse(r.stdout)).toEqual(PROFILE);
  });

  it('--no-coverage sends coverage=false', async () => {
    const r = await runCli(['companies', 'get', '42', '--no-coverage', ...api(), '-f', 'json']);
    expect(r.code).toBe(0);
    expect(server.requests[0]!.url).toBe('/v1/companies/42?coverage=false');
  });

  it('draws the profile card on a terminal', async () => {
    const r = await runCli(['people', 'get', '42', ...api()], { tty: 80 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Ada Example · person · id 42');
    expect(r.stdout).toContain('Sentiment  ');
    expect(r.stdout).toContain('Ada opens a factory');
  });

  it('--section timeline -f csv exports that part alone', async () => {
    const r = await runCli(['people', 'get', '42', '--section', 'timeline', ...api(), '-f', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split(/\r?\n/)).toEqual([
      'period,count',
      '2026-09,10',
      '2026-10,40',
      '2026-11,20',
    ]);
  });

  it('--section recent-articles exports articles; top-sources works in json', async () => {
    const a = await runCli([
      'people',
      'get',
      '42',
      '--section',
      'recent-articles',
      ...api(),
      '-f',
      'jsonl',
      '--fields',
      'id,title',
    ]);
    expect(a.stdout.trim()).toBe('{"id":900,"title":"Ada opens a factory"}');
    const b = await runCli([
      'people',
      'get',
      '42',
      '--section',
      'top-sources',
      ...api(),
      '-f',
      'json',
    ]);
    expect(JSON.parse(b.stdout)).toEqual(PROFILE.coverage.top_sources);
  });

  it.each([
    [['people', 'get', '42', '--section', 'outlets'], /not a part of a person profile/],
    [
      ['journalists', 'get', '42', '--section', 'related-entities'],
      /not a part of a journalist profile/,
    ],
    [['people', 'get', '42', '--section', 'timeline', '--no-coverage'], /--no-coverage drops/],
    [['people', 'get', 'abc'], /numeric id/],
  ])('%s is a usage error', async (argv, message) => {
    const r = await runCli([...argv, ...api()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(server.requests).toHaveLength(0);
  });

  it('404 ER0151 is "no such person", exit 1', async () => {
    const r = await runCli(['people', 'get', '404', ...api()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(
      'error: no person with id 404 (HTTP 404, ER0151, request id req-9)',
    );
    expect(r.stderr).toContain('hint: find ids with `news people --name TEXT`');
  });

  it('names the kind for companies and journalists too', async () => {
    const r = await runCli(['journalists', 'get', '404', ...api()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: no journalist with id 404/);
  });
});

describe('journalists articles ID', () => {
  it('runs the search behind links.articles: POST /v1/news/everything with author.id', async () => {
    const r = await runCli([
      'journalists',
      'articles',
      '311',
      '312',
      ...api(),
      '--language-code',
      'en',
      '--per-page',
      '5',
      '-f',
      'json',
    ]);
    expect(r.code).toBe(0);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/news/everything');
    expect(req.body).toEqual({
      page: 1,
      per_page: 5,
      'language.code': 'en',
      'author.id': '311,312',
    });
  });

  it('refuses a fourth author id (the service would drop it)', async () => {
    const r = await runCli(['journalists', 'articles', '1,2,3,4', ...api()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: author.id takes at most 3 values \(got 4\)/);
    expect(server.requests).toHaveLength(0);
  });

  it('says with -v which records it searches', async () => {
    const r = await runCli(['journalists', 'articles', '311', ...api(), '-v', '-f', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/merged by exact name/);
  });
});
