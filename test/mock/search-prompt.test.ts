import { describe, expect, it } from 'vitest';
import { createSearchEngine } from '../../src/mock/search/index.js';
import { promptVocabularyOf, translatePrompt } from '../../src/mock/search/prompt.js';
import { CORPUS } from './search-corpus.js';
import { NOW, ctx, ids, makeStore } from './search-fixture.js';
import { expectSchema } from './search-schema.js';

const store = makeStore(CORPUS);
const vocab = promptVocabularyOf(store);
const translate = (text: string) => translatePrompt(text, vocab, NOW).params;

describe('prompt translation rules', () => {
  it.each([
    [
      'Elon Musk, Tesla, news for the last 10 days',
      {
        'person.name': 'Elon Musk',
        'brand.name': 'Tesla',
        'published_at.start': '2025-05-22T12:00:00.000Z',
      },
    ],
    ['breaking news in German', { is_breaking: '1', 'language.code': 'de' }],
    [
      'French and Spanish articles about Paris',
      { 'language.code': 'fr,es', 'location.name': 'Paris' },
    ],
    [
      'positive stories from Germany',
      { 'sentiment.overall.polarity': 'positive', 'source.country.code': 'de' },
    ],
    [
      'negative coverage of the United Nations',
      { 'sentiment.overall.polarity': 'negative', 'organization.name': 'United Nations' },
    ],
    [
      'earthquake news from the past 2 weeks',
      { 'event.type': 'earthquake', 'published_at.start': '2025-05-18T12:00:00.000Z' },
    ],
    ['climate change with images', { 'topic.id': 'environment.climate-change', has_image: '1' }],
    [
      'AI news today',
      {
        'topic.id': 'technology.artificial-intelligence',
        'published_at.start': '2025-06-01T00:00:00.000Z',
      },
    ],
    ['yesterday in politics', { published_at: '2025-05-31', 'category.id': 'medtop:11000000' }],
    [
      'sports since 2025-05-01 from left-leaning outlets',
      {
        'published_at.start': '2025-05-01',
        'category.id': 'medtop:15000000',
        'source.bias': 'left',
      },
    ],
  ] as const)('%s', (text, want) => {
    expect(translate(text)).toEqual(want);
  });

  it('reports capitalised names it does not know', () => {
    const t = translatePrompt('News about Zorblax Industries and Tesla', vocab, NOW);
    expect(t.params).toEqual({ 'brand.name': 'Tesla' });
    expect(t.ignored).toEqual([
      { field: 'entity.id', value: 'Zorblax Industries', reason: 'not_found' },
    ]);
  });
});

describe('prompt in a search', () => {
  it('applies the filters, reports them in meta.prompt and charges 2 extra points for a new wording', () => {
    const engine = createSearchEngine(store);
    const first = engine.everything({ prompt: 'Elon Musk news in German' }, ctx());
    expect(ids(first.body)).toEqual([2]);
    expect(first.points).toBe(3);
    expect(first.body['meta']).toEqual({
      prompt: {
        text: 'Elon Musk news in German',
        applied: { 'person.name': 'Elon Musk', 'language.code': 'de' },
        ignored: [],
        cached: false,
      },
    });
    expectSchema('/v1/news/everything', first.body);
    // The same wording (case and spacing aside) comes from the cache.
    const again = engine.everything({ prompt: '  elon musk NEWS in german ' }, ctx());
    expect(again.points).toBe(1);
    expect((again.body['meta'] as { prompt: { cached: boolean } }).prompt.cached).toBe(true);
  });

  it('lets explicit parameters win and says which prompt values were ignored', () => {
    const engine = createSearchEngine(store);
    const r = engine.everything(
      { prompt: 'Elon Musk news in German', 'language.code': 'fr' },
      ctx(),
    );
    expect(ids(r.body)).toEqual([6]);
    expect((r.body['meta'] as { prompt: unknown }).prompt).toMatchObject({
      applied: { 'person.name': 'Elon Musk' },
      ignored: [{ field: 'language.code', value: 'de', reason: 'explicit_param' }],
    });
  });

  it('charges nothing with a test key, and the cache is per engine', () => {
    const engine = createSearchEngine(store);
    expect(engine.count({ prompt: 'news about Tesla' }, ctx({ mode: 'test' })).points).toBe(0);
    expect(createSearchEngine(store).count({ prompt: 'news about Tesla' }, ctx()).points).toBe(3);
  });

  it('reports values an endpoint does not take', () => {
    const engine = createSearchEngine(store);
    const r = engine.trends({ prompt: 'Tesla news with images', field: 'entity.id' }, ctx());
    expect((r.body['meta'] as { prompt: { ignored: unknown[] } }).prompt.ignored).toContainEqual({
      field: 'has_image',
      value: '1',
      reason: 'unsupported_on_endpoint',
    });
  });
});
