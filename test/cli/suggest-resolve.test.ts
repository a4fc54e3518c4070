import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { apiFlags, useRecordingServer } from '../helpers/recording-server.js';

const server = useRecordingServer();
const api = () => apiFlags(server);

const ENTITIES = [
  {
    id: 40006,
    name: 'Paris',
    type: 'location',
    links: {
      self: '/v1/news/entity/40006',
      wikipedia: 'https://en.wikipedia.org/wiki/Paris',
      wikidata: 'https://www.wikidata.org/wiki/Q90',
    },
  },
  {
    id: 10077,
    name: 'Paris Hilton',
    type: 'person',
    links: { self: '/v1/news/entity/10077', wikipedia: '', wikidata: '' },
  },
  { id: 40100, name: 'São Paulo', type: 'location', links: { self: '/v1/news/entity/40100' } },
  { id: 20009, name: 'Nike', type: 'brand', links: { self: '/v1/news/entity/20009' } },
];

const paths = () => server.requests.map((r) => new URL(r.url, 'http://x').pathname);

beforeEach(() => {
  server.respondWith((req) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname.startsWith('/v1/suggest/')) {
      const prefix = (url.searchParams.get('prefix') ?? '')
        .toLowerCase()
        .normalize('NFD')
        .replace(/\p{M}/gu, '');
      return {
        body: ENTITIES.filter((e) =>
          e.name.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').startsWith(prefix),
        ),
      };
    }
    if (url.pathname === '/v1/news/count') return { body: { count: 7 } };
    return { body: { status: 'ok', page: 1, has_next_pages: false, results: [] } };
  });
});

describe('news suggest', () => {
  it('GETs /v1/suggest/KIND?prefix=… and exports the bare array', async () => {
    const r = await runCli(['suggest', 'entities', 'par', ...api(), '-f', 'json']);
    expect(r.code).toBe(0);
    expect(server.requests[0]!.method).toBe('GET');
    expect(server.requests[0]!.url).toBe('/v1/suggest/entities?prefix=par');
    expect(JSON.parse(r.stdout)).toEqual(ENTITIES.slice(0, 2));
  });

  it('--ids prints one id per line', async () => {
    const r = await runCli(['suggest', 'entities', 'par', ...api(), '--ids']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('40006\n10077\n');
  });

  it('a table shows id, name, type and the knowledge-base links', async () => {
    const r = await runCli(['suggest', 'entities', 'paris', ...api(), '-f', 'csv']);
    expect(r.stdout.split(/\r?\n/)[0]).toBe(
      'id,name,type,links.self,links.wikipedia,links.wikidata',
    );
    const t = await runCli(['suggest', 'entities', 'paris', ...api()], { tty: 120 });
    expect(t.stdout).toMatch(/id {2}name +type +wikipedia +wikidata\n/);
    // Sized by content: the links are whole on a wide terminal.
    expect(t.stdout).toContain('https://www.wikidata.org/wiki/Q90');
  });

  it.each(['categories', 'topics', 'industries'])('suggest %s uses its own path', async (kind) => {
    const r = await runCli(['suggest', kind, 'ec', ...api(), '-f', 'json']);
    expect(r.code).toBe(0);
    expect(server.requests[0]!.url).toBe(`/v1/suggest/${kind}?prefix=ec`);
  });
});

describe('--resolve', () => {
  it('search: sends the exact spelling and says so on stderr', async () => {
    const r = await runCli([
      'search',
      '--location-name',
      'paris,sao paulo',
      '--brand-name',
      'Nike',
      '--resolve',
      ...api(),
      '-f',
      'json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('note: resolved location.name "paris" → "Paris"');
    expect(r.stderr).toContain('note: resolved location.name "sao paulo" → "São Paulo"');
    expect(r.stderr).not.toContain('"Nike" →');
    expect(paths()).toEqual([
      '/v1/suggest/entities',
      '/v1/suggest/entities',
      '/v1/suggest/entities',
      '/v1/news/everything',
    ]);
    expect(server.requests[3]!.body).toMatchObject({
      'location.name': 'Paris,São Paulo',
      'brand.name': 'Nike',
    });
  });

  it('an unresolvable name exits 2 with the code it would have cost, and no search is sent', async () => {
    const r = await runCli(['search', '--location-name', 'Atlantis', '--resolve', ...api()]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: --location-name "Atlantis" matches no known location [ER0218]',
    );
    expect(paths()).toEqual(['/v1/suggest/entities']);
  });

  it('a name of another kind is not accepted, and the hint says what it is', async () => {
    const r = await runCli(['count', '--location-name', 'Paris Hilton', '--resolve', ...api()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hint: "Paris Hilton" is known as a person, not a location');
    expect(paths()).toEqual(['/v1/suggest/entities']);
  });

  it('count, headlines, local and journalists articles resolve too', async () => {
    for (const argv of [
      ['count', '--location-name', 'paris'],
      ['headlines', '--location-name', 'paris'],
      ['local', '--location-name', 'paris'],
      ['journalists', 'articles', '7', '--location-name', 'paris'],
    ]) {
      server.requests.length = 0;
      // count prints a number: it takes no -f.
      const format = argv[0] === 'count' ? [] : ['-f', 'json'];
      const r = await runCli([...argv, '--resolve', ...api(), ...format]);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(server.requests[1]!.body).toMatchObject({ 'location.name': 'Paris' });
    }
  });

  it('without --resolve nothing is looked up', async () => {
    const r = await runCli(['search', '--location-name', 'paris', ...api(), '-f', 'json']);
    expect(r.code).toBe(0);
    expect(paths()).toEqual(['/v1/news/everything']);
    expect(server.requests[0]!.body).toMatchObject({ 'location.name': 'paris' });
  });
});
