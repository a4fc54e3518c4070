import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/** Every command of the API against the built-in mock (`--mock`): real shapes end to end. */
const mock = (argv: string[], tty?: number) =>
  runCli([...argv, '--mock'], tty === undefined ? {} : { tty });

describe('the API commands with --mock', () => {
  it('people, companies, journalists list', async () => {
    for (const kind of ['people', 'companies', 'journalists']) {
      const r = await mock([kind, '--limit', '2', '-f', 'json']);
      expect(r.code, r.stderr).toBe(0);
      const records = JSON.parse(r.stdout) as { id: number; name: string }[];
      expect(records).toHaveLength(2);
      expect(typeof records[0]!.name).toBe('string');
    }
  });

  it('people get: card on a terminal, JSON off it, a section as csv, 404 as ER0151', async () => {
    const list = JSON.parse((await mock(['people', '--limit', '1', '-f', 'json'])).stdout) as {
      id: number;
      name: string;
    }[];
    const id = String(list[0]!.id);
    const card = await mock(['people', 'get', id], 100);
    expect(card.code, card.stderr).toBe(0);
    expect(card.stdout).toContain(`${list[0]!.name} · person · id ${id}`);
    expect(card.stdout).toContain('Coverage');
    expect(card.stdout).toContain('Recent articles');
    const json = JSON.parse((await mock(['people', 'get', id])).stdout) as {
      coverage: { timeline: unknown[] };
    };
    const csv = await mock(['people', 'get', id, '--section', 'timeline', '-f', 'csv']);
    expect(csv.stdout.split(/\r?\n/)[0]).toBe('period,count');
    expect(csv.stdout.trim().split(/\r?\n/)).toHaveLength(json.coverage.timeline.length + 1);
    const missing = await mock(['people', 'get', '999999999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error: no person with id 999999999 \(HTTP 404, ER0151/);
  });

  it('journalists get and journalists articles', async () => {
    const list = JSON.parse((await mock(['journalists', '--limit', '1', '-f', 'json'])).stdout) as {
      id: number;
      name: string;
    }[];
    const id = String(list[0]!.id);
    const outlets = await mock(['journalists', 'get', id, '--section', 'outlets', '-f', 'json']);
    expect(outlets.code, outlets.stderr).toBe(0);
    expect(JSON.parse(outlets.stdout).length).toBeGreaterThan(0);
    const articles = await mock(['journalists', 'articles', id, '--limit', '2', '-f', 'json']);
    expect(articles.code, articles.stderr).toBe(0);
    for (const a of JSON.parse(articles.stdout) as { author?: { name?: string } }[]) {
      expect(a.author?.name).toBe(list[0]!.name);
    }
  });

  it('suggest and --resolve', async () => {
    const ids = await mock(['suggest', 'entities', 'par', '--ids']);
    expect(ids.code, ids.stderr).toBe(0);
    expect(ids.stdout).toMatch(/^\d+\n/);
    for (const kind of ['categories', 'topics', 'industries']) {
      const r = await mock(['suggest', kind, 'e', '-f', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
    }
    const resolved = await mock([
      'search',
      '--location-name',
      'paris',
      '--resolve',
      '--limit',
      '1',
      '-f',
      'json',
    ]);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stderr).toContain('resolved location.name "paris" → "Paris"');
    const unknown = await mock(['count', '--location-name', 'Atlantis Nowhere', '--resolve']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/\[ER0218\]/);
  });

  it('headlines, story, article, entity, local, trends', async () => {
    const headlines = await mock(['headlines', '--limit', '2', '-f', 'json']);
    expect(headlines.code, headlines.stderr).toBe(0);
    const [first] = JSON.parse(headlines.stdout) as { id: number }[];
    for (const argv of [
      ['story', String(first!.id), '--limit', '2', '-f', 'json'],
      ['article', String(first!.id), '-f', 'json'],
      [
        'local',
        '--location-lat',
        '48.8566',
        '--location-lng',
        '2.3522',
        '--location-radius',
        '500',
        '--limit',
        '2',
        '-f',
        'json',
      ],
      ['local', '--location-name', 'paris', '--resolve', '--limit', '2', '-f', 'json'],
      ['trends', '--field', 'entity.id', '-f', 'json'],
    ]) {
      const r = await mock(argv);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
    }
    const article = JSON.parse(
      (await mock(['article', String(first!.id), '-f', 'json'])).stdout,
    ) as { id: number }[];
    expect(article.map((a) => a.id)).toEqual([first!.id]);
    const people = JSON.parse((await mock(['people', '--limit', '1', '-f', 'json'])).stdout) as {
      id: number;
    }[];
    const entity = await mock(['entity', String(people[0]!.id), '--limit', '2', '-f', 'json']);
    expect(entity.code, entity.stderr).toBe(0);
    const chart = await mock(['trends', '--field', 'entity.id'], 90);
    expect(chart.stdout.split('\n')[0]).toMatch(/^entity\.id · [\d,]+ values · [\d,]+ articles$/);
  });

  it('test keys: trends placeholders and the count cap are noted', async () => {
    const trends = await mock([
      'trends',
      '--field',
      'topic.id',
      '--api-key',
      'api_test_mock_basic',
      '-f',
      'json',
    ]);
    expect(trends.code, trends.stderr).toBe(0);
    expect(trends.stderr).toContain('trend values are placeholders');
    const count = await mock(['count', '--api-key', 'api_test_mock_basic']);
    expect(count.stdout).toBe('100\n');
    expect(count.stderr).toContain('test keys cap the count at 100');
  });

  it('-v reports points from the mock headers; an empty directory search is free', async () => {
    const r = await mock(['people', '--name', 'no-such-person-anywhere', '-v', '-f', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/debug: points: 0 used, [\d,]+ remaining/);
    expect(r.stderr).toContain('a directory search without results costs no points');
  });
});
