import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { apiFlags, useRecordingServer } from '../helpers/recording-server.js';
import { TRENDS_SAMPLE, sampleArticle } from '../helpers/samples.js';

const server = useRecordingServer();
const api = () => apiFlags(server);
const article = sampleArticle;
const TRENDS = { status: 'ok', ...TRENDS_SAMPLE };

let mode = 'live';
beforeEach(() => {
  mode = 'live';
  server.respondWith((req) => {
    const headers = { 'x-service-mode': mode };
    if (req.url.startsWith('/v1/news/trends')) return { headers, body: TRENDS };
    const page = Number((req.body as { page?: number } | undefined)?.page ?? 1);
    return {
      headers,
      body: {
        status: 'ok',
        page,
        has_next_pages: false,
        results: [article(page * 10 + 1), article(page * 10 + 2)],
      },
    };
  });
});

describe('article feeds: path, method and body', () => {
  it.each([
    [['headlines', '--language-code', 'en'], '/v1/news/top-headlines', { 'language.code': 'en' }],
    [['story', '123', '--sort-by', 'relevance'], '/v1/news/story/123', { 'sort.by': 'relevance' }],
    [
      ['entity', '4211', '--sentiment-overall-polarity', 'negative'],
      '/v1/news/entity/4211',
      { 'sentiment.overall.polarity': 'negative' },
    ],
    [
      ['local', '--location-lat', '48.85', '--location-lng', '2.35', '--location-radius', '25'],
      '/v1/news/local',
      { 'location.lat': 48.85, 'location.lng': 2.35, 'location.radius': 25 },
    ],
    [
      ['local', '--location-bbox', '51.28,51.69,-0.51,0.33'],
      '/v1/news/local',
      { 'location.bbox': '51.28,51.69,-0.51,0.33' },
    ],
    [
      [
        'local',
        '--lat',
        '48.85',
        '--lng',
        '2.35',
        '--radius',
        '25',
        '--sort',
        'relevance',
        '--w-opr',
        '2',
      ],
      '/v1/news/local',
      { lat: 48.85, lng: 2.35, radius: 25, sort: 'relevance', 'w.opr': 2 },
    ],
    [
      ['local', '--place', 'Paris', '--country', 'fr', '--insights', 'mood,hotspots'],
      '/v1/news/local',
      { place: 'Paris', country: 'fr', insights: 'mood,hotspots' },
    ],
  ])('%s → POST %s', async (argv, path, body) => {
    const r = await runCli([...argv, ...api(), '--per-page', '2', '-f', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe(path);
    expect(req.body).toEqual({ page: 1, per_page: 2, ...body });
    expect(JSON.parse(r.stdout).map((a: { id: number }) => a.id)).toEqual([11, 12]);
  });

  it('csv output of a feed has the article columns', async () => {
    const r = await runCli([
      'headlines',
      ...api(),
      '-f',
      'csv',
      '--fields',
      'id,title,source.domain',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split(/\r?\n/)).toEqual([
      'id,title,source.domain',
      '11,Article 11,example.com',
      '12,Article 12,example.com',
    ]);
  });

  it.each([
    [['local'], /local needs a place/],
    [['local', '--lat', '48'], /--lat needs --lng/],
    [['local', '--lat', '48', '--lng', '2', '--ranking', 'nearest'], /--ranking must be one of/],
    [['story', 'abc'], /numeric id/],
    [['entity', '12x'], /numeric id/],
    [['story', '1', '--prompt', 'anything at all'], /unknown option '--prompt'/],
  ])('%s is refused before sending', async (argv, message) => {
    const r = await runCli([...argv, ...api()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(server.requests).toHaveLength(0);
  });
});

describe('news article IDS', () => {
  it('sends the ids comma-separated in the body field `id`', async () => {
    const r = await runCli(['article', '101', '102,103', ...api(), '-f', 'json']);
    expect(r.code).toBe(0);
    const req = server.requests[0]!;
    expect(req.url).toBe('/v1/news/article');
    expect(req.body).toMatchObject({ id: '101,102,103' });
  });

  it('takes up to 100 ids (the article endpoint, not the 5-id search filter)', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => String(i + 1));
    const r = await runCli(['article', ...hundred, ...api(), '-f', 'json']);
    expect(r.code).toBe(0);
    expect(server.requests[0]!.body).toMatchObject({ id: hundred.join(',') });
  });

  it('refuses a 101st id before sending', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => String(i + 1)).join(',');
    const r = await runCli(['article', ids, ...api()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: article ids takes at most 100 values \(got 101\)/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('news trends', () => {
  it('needs --field, checked against the OpenAPI values', async () => {
    const none = await runCli(['trends', ...api()]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/trends needs --field/);
    const bad = await runCli(['trends', '--field', 'author.id', ...api()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--field each value must be one of source.id, category.id/);
    expect(server.requests).toHaveLength(0);
  });

  it('POSTs the aggregation and filter parameters typed', async () => {
    const r = await runCli([
      'trends',
      '--field',
      'entity.id,topic.id',
      '--per-page',
      '20',
      '--trending',
      '1',
      '--time-bucket',
      'day',
      '--language-code',
      'en',
      ...api(),
      '-f',
      'json',
    ]);
    expect(r.code).toBe(0);
    expect(server.requests[0]!.url).toBe('/v1/news/trends');
    expect(server.requests[0]!.body).toEqual({
      'language.code': 'en',
      field: 'entity.id,topic.id',
      per_page: 20,
      time_bucket: 'day',
      trending: '1',
    });
  });

  it('exports trend items tagged with their field (json, csv)', async () => {
    const json = await runCli(['trends', '--field', 'entity.id', ...api(), '-f', 'json']);
    expect(JSON.parse(json.stdout)[0]).toEqual({ field: 'entity.id', ...TRENDS.trends[0] });
    const csv = await runCli([
      'trends',
      '--field',
      'entity.id',
      ...api(),
      '-f',
      'csv',
      '--fields',
      'value.name,count',
    ]);
    expect(csv.stdout.trim().split(/\r?\n/)).toEqual([
      'value.name,count',
      'SpaceX,342',
      'Elon Musk,218',
    ]);
  });

  it('draws a chart on a terminal', async () => {
    const r = await runCli(['trends', '--field', 'entity.id', ...api()], { tty: 80 });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('entity.id · 1,240 values · 58,213 articles');
    expect(r.stdout).toMatch(/SpaceX +organization +342 +0\.59% +2\.15\/h +█+/);
  });

  it('says in test mode that values are placeholders', async () => {
    mode = 'test';
    const r = await runCli(['trends', '--field', 'entity.id', ...api(), '-f', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/trend values are placeholders/);
  });
});
