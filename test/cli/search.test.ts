import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { TEST_KEY, apiFlags, useRecordingServer } from '../helpers/recording-server.js';
import { sampleArticle } from '../helpers/samples.js';

const KEY = TEST_KEY;
const server = useRecordingServer();
const api = () => apiFlags(server);

const article = sampleArticle;

/** Three pages of two articles each, by the `page` of the request body. */
function pagedResponder() {
  server.respondWith((req) => {
    const page = Number((req.body as { page?: number }).page ?? 1);
    return {
      body: {
        status: 'ok',
        page,
        has_next_pages: page < 3,
        results: [article(page * 10 + 1), article(page * 10 + 2)],
      },
    };
  });
}

beforeEach(() => {
  pagedResponder();
});

describe('news search: flags to request', () => {
  it('POSTs the typed JSON body to /v1/news/everything with the key in X-API-Key', async () => {
    const r = await runCli([
      'search',
      ...api(),
      '--title',
      'rate cut',
      '--language-code',
      'en,fr',
      '--per-page',
      '20',
      '--has-image',
      '--sentiment-overall-score-min',
      '-0.5',
      '-f',
      'json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/news/everything');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['user-agent']).toMatch(/^news-cli\/\d+\.\d+\.\d+/);
    expect(req.body).toEqual({
      page: 1,
      per_page: 20,
      title: 'rate cut',
      'language.code': 'en,fr',
      'sentiment.overall.score.min': -0.5,
      has_image: 1,
    });
  });

  it('sends --param values under their API names, typed like flags', async () => {
    const r = await runCli([
      'search',
      ...api(),
      '--param',
      'sort.by=relevance',
      '--param',
      'readability.age.min=9',
      '-f',
      'json',
    ]);
    expect(r.code).toBe(0);
    expect(server.requests[0]!.body).toMatchObject({
      'sort.by': 'relevance',
      'readability.age.min': 9,
    });
  });

  it.each([
    [
      'bearer',
      (h: Record<string, unknown>, url: string) =>
        h['authorization'] === `Bearer ${KEY}` && !url.includes(KEY),
    ],
    ['query', (_h: Record<string, unknown>, url: string) => url.includes(`api_key=${KEY}`)],
  ])('--auth %s sends the key there', async (method, check) => {
    const r = await runCli(['search', ...api(), '--auth', method, '-f', 'json']);
    expect(r.code).toBe(0);
    const req = server.requests[0]!;
    expect(check(req.headers, req.url)).toBe(true);
  });
});

describe('news search: validation sends nothing', () => {
  it.each([
    [['--per-page', '500'], /^error: --per-page must be an integer from 1 to 250/],
    [['--entity-sentiment-polarity', 'negative'], /\[ER0293\]/],
    [
      [
        '--title',
        'rates',
        '--published-at-start',
        '2026-01-01',
        '--published-at-end',
        '2026-03-01',
      ],
      /\[ER0110\]/,
    ],
    [['--location-radius', '5'], /needs both --location-lat and --location-lng/],
    [['--language-code', 'en,fr,de,it'], /at most 3 values/],
    [['--title', 'rat*'], /wildcard/],
    [['--param', 'per_page'], /--param per_page must be NAME=VALUE/],
  ])('%s exits 2 with one error line', async (flags, message) => {
    const r = await runCli(['search', ...api(), ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(message);
    expect(r.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
  });

  it('an unknown flag suggests the right one', async () => {
    const r = await runCli(['search', ...api(), '--titel', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown option '--titel'\nhint: did you mean --title\?/);
    expect(server.requests).toHaveLength(0);
  });

  it('an unknown command suggests the right one', async () => {
    const r = await runCli(['serch']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown command 'serch'\nhint: did you mean search\?/);
  });
});

describe('news search --dry-run', () => {
  it('prints method, URL, body and curl with the key redacted, and sends nothing', async () => {
    const r = await runCli(['search', ...api(), '--title', 'rate cut', '--dry-run']);
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(r.stdout).toContain(`POST ${server.url}/v1/news/everything`);
    expect(r.stdout).toContain('"title": "rate cut"');
    expect(r.stdout).toMatch(/curl .*\$NEWS_API_KEY/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('redacts the key from the URL with --auth query', async () => {
    const r = await runCli(['search', ...api(), '--auth', 'query', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('api_key=***');
    expect(r.stdout).not.toContain(KEY);
  });
});

describe('news search: paging and output', () => {
  it('one page by default, as a JSON array of the records', async () => {
    const r = await runCli(['search', ...api(), '-f', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([article(11), article(12)]);
    expect(server.requests).toHaveLength(1);
  });

  it('--all follows has_next_pages', async () => {
    const r = await runCli(['search', ...api(), '--all', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([11, 12, 21, 22, 31, 32]);
    expect(server.requests.map((q) => (q.body as { page: number }).page)).toEqual([1, 2, 3]);
  });

  it('--limit stops across pages and truncates', async () => {
    const r = await runCli(['search', ...api(), '--limit', '3', '--per-page', '2', '-f', 'ndjson']);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([11, 12, 21]);
  });

  it('--raw prints the untouched envelope', async () => {
    const r = await runCli(['search', ...api(), '--raw']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'ok',
      has_next_pages: true,
      results: [article(11), article(12)],
    });
  });

  it('defaults to json when stdout is not a terminal', async () => {
    const r = await runCli(['search', ...api()]);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
  });

  it('defaults to a table on a terminal', async () => {
    const r = await runCli(['search', ...api()], { tty: 100 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Article 11');
    expect(r.stdout).toContain('example.com');
    expect(() => JSON.parse(r.stdout)).toThrow();
  });
});

describe('news search: API errors to exit codes', () => {
  const envelope = (status: number, code?: string) => ({
    status: 'not_ok',
    request_id: 'req-42',
    errors: [{ status, ...(code ? { code } : {}), message: `failure ${status}` }],
  });
  it.each([
    [401, 'ER0201', 3],
    [403, 'ER0706', 3],
    [402, undefined, 4],
    [429, undefined, 4],
    [400, 'ER0704', 1],
    [500, undefined, 1],
  ])('HTTP %i (%s) exits %i with code and request id', async (status, code, exit) => {
    server.respondWith(() => ({ status, body: envelope(status, code) }));
    const r = await runCli(['search', ...api()]);
    expect(r.code).toBe(exit);
    expect(r.stdout).toBe('');
    const first = r.stderr.split('\n')[0]!;
    expect(first).toMatch(new RegExp(`^error: failure ${status} \\(HTTP ${status}`));
    if (code) expect(first).toContain(code);
    expect(first).toContain('request id req-42');
    expect(r.stderr).not.toContain('    at ');
    expect(r.stderr).not.toContain(KEY);
  });

  it('connection refused exits 5', async () => {
    const r = await runCli([
      'search',
      '--base-url',
      'http://127.0.0.1:9',
      '--api-key',
      KEY,
      '--retries',
      '0',
    ]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^error: .*127\.0\.0\.1:9/);
  });

  it('no key at all is a usage error with a hint', async () => {
    const r = await runCli(['search', '--base-url', server.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: no API key\nhint: .*--mock/);
  });
});
