import { describe, expect, it } from 'vitest';
import { fragments } from '../../src/mock/search/highlight.js';
import { createSearchEngine } from '../../src/mock/search/index.js';
import { CORPUS } from './search-corpus.js';
import { article, ctx, daysAgo, hoursAgo, makeStore } from './search-fixture.js';
import { expectSchema } from './search-schema.js';

const engine = createSearchEngine(makeStore(CORPUS));
type Highlights = Record<string, Record<string, string[]>>;

describe('highlighting', () => {
  it('marks the title words searched for, keyed by article id', () => {
    const body = engine.everything({ title: 'climate', hl: '1' }, ctx()).body;
    const hl = body['highlighting'] as Highlights;
    expect(Object.keys(hl).sort()).toEqual(['1', '3', '6']);
    expect(hl['1']?.['title']).toEqual(['<em>Climate</em> change policy debate in Europe']);
    expect(hl['1']?.['description']).toEqual([
      'Leaders discuss <em>climate</em> change and a new policy.',
    ]);
    expectSchema('/v1/news/everything', body);
  });

  it('is absent without hl, and with hl=0 or false', () => {
    expect(engine.everything({ title: 'climate' }, ctx()).body['highlighting']).toBeUndefined();
    expect(
      engine.everything({ title: 'climate', hl: 'false' }, ctx()).body['highlighting'],
    ).toBeUndefined();
    expect(
      engine.everything({ title: 'climate', hl: 'true' }, ctx()).body['highlighting'],
    ).toBeDefined();
  });

  it('takes the fields, tags and extra search terms, which never filter', () => {
    const body = engine.everything(
      {
        'source.id': '2',
        hl: 1,
        'hl.fl': 'description',
        search: 'inflation,tesla',
        'hl.tag.pre': '[',
        'hl.tag.post': ']',
      },
      ctx(),
    ).body;
    expect((body['results'] as unknown[]).length).toBe(1);
    expect(body['highlighting']).toEqual({
      '2': { description: ['[Tesla] shares fall as [inflation] rises.'] },
    });
  });

  it('highlights query terms, not other field values', () => {
    const body = engine.everything({ query: 'earthquake AND language.code:en', hl: 1 }, ctx()).body;
    expect((body['highlighting'] as Highlights)['4']).toEqual({
      title: ['<em>Earthquake</em> hits Tokyo coast'],
    });
  });

  it('cuts long texts into at most hl.snippets fragments of about hl.fragsize characters', () => {
    const text = `${'filler words here '.repeat(20)}target one ${'more filler text '.repeat(20)}target two ${'tail '.repeat(40)}target three end`;
    const o = {
      words: new Set(['target']),
      fields: [],
      fragsize: 60,
      snippets: 2,
      pre: '<b>',
      post: '</b>',
    };
    const f = fragments(text, o);
    expect(f).toHaveLength(2);
    for (const frag of f) {
      expect(frag).toContain('<b>target</b>');
      expect(frag.replace(/<\/?b>/g, '').length).toBeLessThanOrEqual(60);
    }
    expect(fragments(text, { ...o, snippets: 5 })).toHaveLength(3);
  });
});

describe('facets', () => {
  it('counts values over every match, not only the page', () => {
    const body = engine.everything(
      { facet: 1, 'facet.field': 'source.id,language.id,is_duplicate', per_page: 1 },
      ctx(),
    ).body;
    const facets = body['facets'] as Record<
      string,
      { value: string; count: number; name?: string }[]
    >;
    expect(facets['source.id']).toEqual([
      { value: '1', count: 3, name: 'alpha.com' },
      { value: '3', count: 2 },
      { value: '2', count: 1 },
    ]);
    expect(facets['language.id']).toEqual([
      { value: '1', count: 3, name: 'English' },
      { value: '3', count: 2, name: 'French' },
      { value: '2', count: 1, name: 'German' },
    ]);
    expect(facets['is_duplicate']).toEqual([
      { value: '0', count: 5 },
      { value: '1', count: 1 },
    ]);
    expectSchema('/v1/news/everything', body);
  });

  it('applies facet.limit and facet.mincount', () => {
    const f = (extra: Record<string, unknown>) =>
      (
        engine.everything({ facet: 1, 'facet.field': 'source.bias', ...extra }, ctx()).body[
          'facets'
        ] as Record<string, unknown[]>
      )['source.bias'];
    expect(f({})).toHaveLength(3);
    expect(f({ 'facet.limit': 1 })).toEqual([{ value: 'center', count: 3 }]);
    expect(f({ 'facet.mincount': 2 })).toEqual([
      { value: 'center', count: 3 },
      { value: 'left', count: 2 },
    ]);
  });

  it('facets on entities, categories and derived values', () => {
    const facets = engine.everything(
      {
        facet: '1',
        'facet.field':
          'entity.id,category.id,sentiment.overall.polarity,published.weekday,content.length',
      },
      ctx(),
    ).body['facets'] as Record<string, { value: string; count: number }[]>;
    expect(facets['entity.id']?.[0]).toEqual({ value: '906', count: 2, name: 'Elon Musk' });
    expect(facets['category.id']).toContainEqual({
      value: 'medtop:06000000',
      count: 1,
      name: 'environment',
    });
    expect(facets['sentiment.overall.polarity']).toEqual([
      { value: 'positive', count: 3 },
      { value: 'negative', count: 2 },
      { value: 'neutral', count: 1 },
    ]);
    expect(facets['content.length']).toEqual([{ value: 'medium', count: 6 }]);
    expect(facets['published.weekday']?.reduce((n, e) => n + e.count, 0)).toBe(6);
  });

  it('leaves facets out when not asked or switched off', () => {
    expect(engine.everything({}, ctx()).body['facets']).toBeUndefined();
    expect(
      engine.everything({ facet: 0, 'facet.field': 'source.id' }, ctx()).body['facets'],
    ).toBeUndefined();
  });

  it('buckets published_at by day with facet.range', () => {
    const docs = [
      article(1, { published_at: '2025-05-30T10:00:00.000Z' }),
      article(2, { published_at: '2025-05-30T23:59:00.000Z' }),
      article(3, { published_at: '2025-05-31T00:00:00.000Z' }),
      article(4, { published_at: daysAgo(20) }),
      article(5, { published_at: hoursAgo(1) }),
    ];
    const e = createSearchEngine(makeStore(docs));
    const body = e.everything(
      {
        'facet.range': '1',
        'facet.range.field': 'published_at',
        'facet.range.start': '2025-05-29',
        'facet.range.end': '2025-06-01',
        'facet.range.gap': '+1DAY',
      },
      ctx(),
    ).body;
    expect((body['facets'] as { ranges: unknown })['ranges']).toEqual({
      published_at: {
        start: '2025-05-29T00:00:00.000Z',
        end: '2025-06-01T00:00:00.000Z',
        gap: '+1DAY',
        counts: [
          { value: '2025-05-29T00:00:00.000Z', count: 0 },
          { value: '2025-05-30T00:00:00.000Z', count: 2 },
          { value: '2025-05-31T00:00:00.000Z', count: 1 },
        ],
      },
    });
    const math = e.everything(
      {
        'facet.range': 1,
        'facet.range.start': 'NOW/DAY-2DAYS',
        'facet.range.end': 'NOW',
        'facet.range.gap': '+12HOURS',
      },
      ctx(),
    ).body['facets'] as { ranges: { published_at: { counts: unknown[] } } } | undefined;
    // NOW/DAY-2DAYS is not the supported order of date math, so the range is not computed.
    expect(math).toBeUndefined();
    const numeric = e.everything(
      {
        'facet.range': 1,
        'facet.range.field': 'read_time',
        'facet.range.start': '0',
        'facet.range.end': '10',
        'facet.range.gap': '5',
      },
      ctx(),
    ).body['facets'] as { ranges: { read_time: { counts: unknown[] } } };
    expect(numeric.ranges.read_time.counts).toEqual([
      { value: 0, count: 5 },
      { value: 5, count: 0 },
    ]);
  });

  it('accepts date math relative to now', () => {
    const e = createSearchEngine(
      makeStore([
        article(1, { published_at: hoursAgo(30) }),
        article(2, { published_at: hoursAgo(1) }),
      ]),
    );
    const body = e.everything(
      {
        'facet.range': 1,
        'facet.range.start': 'NOW-2DAYS/DAY',
        'facet.range.end': 'NOW',
        'facet.range.gap': '+1DAY',
      },
      ctx(),
    ).body;
    const counts = (body['facets'] as { ranges: { published_at: { counts: { count: number }[] } } })
      .ranges.published_at.counts;
    expect(counts.map((c) => c.count)).toEqual([0, 1, 1]);
  });
});
