import { describe, expect, it } from 'vitest';
import { queryFields } from '../../src/params/query/index.js';
import { SEARCH_PARAMS } from '../../src/params/search-params.js';
import { handlerFor, isFilterParam } from '../../src/mock/search/filters.js';
import { createSearchEngine } from '../../src/mock/search/index.js';
import { targetKnowsField } from '../../src/mock/search/query-target.js';
import { CORPUS, LATEST_FIRST } from './search-corpus.js';
import { ctx, daysAgo, ids, makeStore } from './search-fixture.js';

const engine = createSearchEngine(makeStore(CORPUS));
const search = (params: Record<string, unknown>) => ids(engine.everything(params, ctx()).body);
const ALL = LATEST_FIRST;

type Case = [Record<string, unknown>, number[]];

function table(name: string, cases: Case[]) {
  describe(name, () => {
    it.each(cases.map(([p, want]) => [JSON.stringify(p), p, want] as const))(
      '%s',
      (_label, params, want) => {
        expect(search(params)).toEqual(want);
      },
    );
  });
}

describe('drift between the parameter table and the engine', () => {
  it('has a handler for every filter parameter of SEARCH_PARAMS', () => {
    const missing = SEARCH_PARAMS.filter(isFilterParam)
      .map((d) => d.name)
      .filter((n) => handlerFor(n) === undefined);
    expect(missing).toEqual([]);
  });

  it('finds no handler for a parameter it does not know (so the check above can fail)', () => {
    expect(handlerFor('made.up.filter')).toBeUndefined();
    expect(handlerFor('made.up.filter.min')).toBeUndefined();
    expect(handlerFor('ignore.made.up')).toBeUndefined();
  });

  it('answers every field of the query language', () => {
    const missing = queryFields().flatMap((f) => [
      ...(f.outsideEntityBlock && !targetKnowsField(f.name, false) ? [f.name] : []),
      ...(f.inEntityBlock && !targetKnowsField(f.name, true) ? [`{{${f.name}}}`] : []),
    ]);
    expect(missing).toEqual([]);
  });
});

describe('request parsing', () => {
  it('ignores unknown parameters', () => {
    expect(search({ 'no.such.param': 'x', frobnicate: 1 })).toEqual(ALL);
  });
  it('accepts numbers, strings and arrays alike', () => {
    expect(search({ 'source.id': 2 })).toEqual([2]);
    expect(search({ 'source.id': '2' })).toEqual([2]);
    expect(search({ 'language.code': ['de', 'fr'] })).toEqual([2, 3, 6]);
    expect(search({ read_time: '6' })).toEqual([1]);
  });
  it('drops the fourth and later list values, keeping the first three', () => {
    expect(search({ 'language.code': 'de,fr,it,en' })).toEqual([2, 3, 6]);
  });
  it('does not apply an invalid value', () => {
    expect(search({ 'language.code': 'english' })).toEqual(ALL);
    expect(search({ 'category.id': 'iab-1' })).toEqual(ALL);
    expect(search({ read_time: -3 })).toEqual(ALL);
    expect(search({ has_image: 2 })).toEqual(ALL);
    expect(search({ 'sentiment.overall.polarity': 'happy' })).toEqual(ALL);
  });
  it('drops a filter holding a wildcard', () => {
    expect(search({ 'person.name': 'Elon*' })).toEqual(ALL);
    expect(search({ title: 'clim?te' })).toEqual(ALL);
  });
});

table('language, country, source', [
  [{ 'language.code': 'en' }, [1, 4, 5]],
  [{ 'language.code': 'EN' }, [1, 4, 5]],
  [{ 'language.code': 'en,fr' }, [1, 3, 4, 6, 5]],
  [{ 'ignore.language.code': 'en' }, [2, 3, 6]],
  [{ 'source.country.code': 'de' }, [2]],
  [{ 'ignore.source.country.code': 'us' }, [2, 3, 6]],
  [{ 'source.id': '2' }, [2]],
  [{ 'ignore.source.id': '1' }, [2, 3, 6]],
  [{ 'source.domain': 'beta.de' }, [2]],
  [{ 'ignore.source.domain': 'alpha.com' }, [2, 3, 6]],
  [{ 'source.bias': 'left' }, [3, 6]],
  [{ 'ignore.source.bias': 'left,right' }, [1, 4, 5]],
  [{ 'source.rank.opr.min': 5 }, [1, 2, 4, 5]],
  [{ 'source.rank.opr.max': 4 }, [3, 6]],
  [{ is_premium_source: 1 }, [2]],
  [{ is_verified_source: 0 }, [2, 3, 6]],
]);

table('classification and entities', [
  [{ 'category.id': 'medtop:06000000' }, [1]],
  [{ 'ignore.category.id': 'medtop:04000000' }, [1, 3, 4, 6, 5]],
  [{ 'topic.id': 'economy.inflation' }, [2]],
  [{ 'ignore.topic.id': 'economy.inflation,environment.climate-change' }, [3, 4, 6, 5]],
  [{ 'industry.id': '402' }, [1]],
  [{ 'entity.id': '906' }, [2, 6]],
  [{ 'ignore.entity.id': '906' }, [1, 3, 4, 5]],
  [{ 'person.name': 'Elon Musk' }, [2, 6]],
  [{ 'person.name': 'musk' }, [2, 6]],
  [{ 'person.name': 'Greta Thunberg,Elon Musk' }, [1, 2, 6]],
  [{ 'ignore.person.name': 'Greta Thunberg' }, [2, 3, 4, 6, 5]],
  [{ 'organization.name': 'United Nations' }, [1, 5]],
  [{ 'location.name': 'Paris' }, [3]],
  [{ 'ignore.location.name': 'Paris' }, [1, 2, 4, 6, 5]],
  [{ 'brand.name': 'Tesla' }, [2]],
  [{ 'disaster.name': 'Tohoku Earthquake' }, [4]],
  [{ 'event.type': 'earthquake' }, [4]],
  [{ 'event.type': 'protest,earnings' }, [2, 3]],
  [{ 'ignore.event.type': 'earthquake' }, [1, 2, 3, 6, 5]],
  [{ 'event.category': 'society' }, [3]],
]);

table('entity sentiment applies to the selected entities', [
  [{ 'entity.id': '902', 'entity.sentiment.polarity': 'negative' }, [2]],
  [{ 'person.name': 'Elon Musk', 'entity.sentiment.polarity': 'positive' }, [2, 6]],
  // Article 2 has a negative entity (Tesla), but not the selected one.
  [{ 'person.name': 'Elon Musk', 'entity.sentiment.polarity': 'negative' }, []],
  [{ 'person.name': 'Greta Thunberg', 'entity.sentiment.score.min': 0.5 }, [1]],
  [{ 'entity.id': '906', 'entity.sentiment.score.max': 0 }, []],
  [
    {
      'entity.id': '906,902',
      'entity.sentiment.score.min': -1,
      'entity.sentiment.score.max': -0.5,
    },
    [2],
  ],
]);

table('sentiment', [
  [{ 'sentiment.overall.score': 0.5 }, [1]],
  [{ 'sentiment.overall.score.min': 0.2 }, [1, 3, 6]],
  [{ 'sentiment.overall.score.max': -0.5 }, [2, 4]],
  [{ 'sentiment.overall.polarity': 'negative' }, [2, 4]],
  [{ 'sentiment.title.polarity': 'positive' }, [1, 3, 6]],
  [{ 'sentiment.title.score.max': -0.9 }, [4]],
  [{ 'sentiment.body.polarity': 'positive' }, [1, 2, 3, 6]],
  [{ 'sentiment.body.score.min': 0.4 }, [1, 6]],
  [{ 'sentiment.mixed': 1 }, [2]],
  [{ 'sentiment.consistent': 0 }, [2]],
  [{ 'sentiment.consistent': 1 }, [1, 3, 4, 6, 5]],
  [{ 'sentiment_gap.min': 0.5 }, [2]],
  [{ 'sentiment_gap.max': 0.1 }, [1, 6, 5]],
  [{ is_clickbait: 1 }, [3]],
]);

table('media', [
  [{ 'media.images.count': 2 }, [2, 5]],
  [{ 'media.images.count.min': 1 }, [1, 2, 4, 6, 5]],
  [{ 'media.images.count.max': 0 }, [3]],
  [{ 'media.videos.count.min': 1 }, [2]],
  [{ 'media.images.width.min': 1200 }, [1, 5]],
  [{ 'media.images.width.max': 800 }, [2, 4]],
  [{ 'media.images.height.min': 1200 }, [2, 5]],
  [{ has_image: 1 }, [1, 2, 4, 6, 5]],
  [{ has_image: 0 }, [3]],
  [{ has_video: 1 }, [2]],
  [{ has_hq_images: 1 }, [1, 5]],
  [{ is_media_rich: 1 }, [2]],
  [{ is_landscape_media: 1 }, [1, 4, 5]],
  [{ is_portrait_media: 1 }, [2]],
  [{ has_multiple_images: 1 }, [2, 5]],
  [{ has_fullhd_images: 1 }, [1, 5]],
  [{ has_4k_images: 1 }, [5]],
  [{ has_mobile_optimized_images: 1 }, [2]],
  [{ is_instagram_ready: 1 }, [1, 6, 5]],
  [{ is_twitter_card_ready: 1 }, [1, 5]],
  [{ has_consistent_image_sizes: 1 }, [2]],
  [{ has_thumbnail: 1 }, [4]],
  [{ has_social_share_image: 1 }, [1, 5]],
  [{ has_mixed_media: 1 }, [2]],
]);

table('readability and length', [
  [{ 'readability.fk_grade': 10 }, [1]],
  [{ 'readability.fk_grade.min': 10 }, [1, 2]],
  [{ 'readability.ease.max': 40 }, [2]],
  [{ 'readability.ari.min': 11 }, [1, 2]],
  [{ 'readability.difficulty': 'beginner' }, [3]],
  [{ 'readability.audience': 'general' }, [4, 6, 5]],
  [{ 'readability.age': 16 }, [1]],
  [{ 'readability.age.max': 10 }, [3]],
  [{ read_time: 6 }, [1]],
  [{ 'read_time.min': 6 }, [1, 2, 5]],
  [{ 'read_time.max': 2 }, [3, 4]],
  [{ is_easy_read: 1 }, [1, 3]],
  [{ is_difficult_read: 1 }, [2]],
  [{ is_long_read: 1 }, [1, 2, 6, 5]],
  [{ is_short_read: 1 }, [3, 4]],
  [{ is_quick_read: 1 }, [3, 4]],
  [{ is_medium_read: 1 }, [1, 6]],
  [{ is_deep_dive: 1 }, [2]],
]);

table('location', [
  [{ has_location_geo: 1 }, [1, 3, 4]],
  [{ has_location_geo: 0 }, [2, 6, 5]],
  [{ 'location.bbox': '48,51,2,5' }, [1, 3]],
  [{ 'location.bbox': 'nonsense' }, ALL],
  [{ 'location.lat': 48.8566, 'location.lng': 2.3522, 'location.radius': 300 }, [1, 3]],
  [{ 'location.lat': 48.8566, 'location.lng': 2.3522, 'location.radius': 100 }, [3]],
  [{ 'location.lat': 48.8566, 'location.lng': 2.3522, 'location.radius.min': 100 }, [1, 4]],
  // Without a centre the radius means nothing and is not applied.
  [{ 'location.radius': 100 }, ALL],
]);

table('article flags and authors', [
  [{ is_duplicate: 1 }, [3]],
  [{ is_duplicate: 0 }, [1, 2, 4, 6, 5]],
  [{ is_paywall: 1 }, [3]],
  [{ is_breaking: 1 }, [2]],
  [{ is_high_quality: 1 }, [1, 2, 5]],
  [{ has_author: 0 }, [4, 6]],
  [{ 'author.id': '77' }, [1]],
  [{ 'ignore.author.id': '77,78' }, [3, 4, 6, 5]],
  // Two author records are called Jane Roe (77 and 79): the name resolves to the first only.
  [{ 'author.name': 'Jane Roe' }, [1]],
  [{ 'ignore.author.name': 'Jane Roe' }, [2, 4, 6, 5]],
  [{ 'article.id': '1,5' }, [1, 5]],
]);

table('dates', [
  [{ published_at: daysAgo(10).slice(0, 10) }, [6]],
  [{ 'published_at.start': daysAgo(11) }, [1, 2, 3, 4, 6]],
  [{ 'published_at.end': daysAgo(20) }, [5]],
  [{ 'published_at.start': daysAgo(45), 'published_at.end': daysAgo(5) }, [6, 5]],
  [{ published_at: 'yesterday' }, ALL],
]);

table('title filters (within the last 31 days)', [
  [{ title: 'climate' }, [1, 3, 6]],
  [{ title: '"climate change"' }, [1]],
  [{ title: '"climate change"~2' }, [1, 6]],
  [{ title: 'climate policy' }, [1, 3, 6]],
  [{ title: 'climate earthquake' }, []],
  [{ 'ignore.title': 'climate' }, [2, 4]],
  [{ title_starts_with: 'climate' }, [1]],
  [{ title_ends_with: 'change' }, [6]],
  [{ title_pattern: '^earth' }, [4]],
  [{ title: 'climate', 'published_at.start': daysAgo(41), 'published_at.end': daysAgo(39) }, [5]],
]);

table('query', [
  [{ query: 'climate AND NOT policy' }, []],
  [{ query: 'climate OR earthquake' }, [1, 3, 4, 6]],
  [{ query: 'source.bias:left' }, [3, 6]],
  [{ query: 'read_time:>5' }, [1, 2]],
  [{ query: 'read_time:[2 TO 5]' }, [4, 6]],
  [{ query: 'title:"climate change"~2' }, [1, 6]],
  [{ query: 'language.code:(en OR de) AND has_image:1' }, [1, 2, 4]],
  [{ query: '{{entity.name:"Elon Musk" AND entity.sentiment.polarity:positive}}' }, [2, 6]],
  [{ query: '{{entity.type:brand AND entity.sentiment.score:<0}}' }, [2]],
  // Combined with flat filters through AND.
  [{ query: 'climate', 'language.code': 'fr' }, [3, 6]],
]);

describe('query and flat filters agree', () => {
  const window = { 'published_at.start': daysAgo(31) };
  it.each([
    ['read_time:>=6', { 'read_time.min': 6 }],
    ['sentiment.overall.polarity:negative', { 'sentiment.overall.polarity': 'negative' }],
    ['media.images.width:>=1200', { 'media.images.width.min': 1200 }],
    ['NOT source.country.code:us', { 'ignore.source.country.code': 'us' }],
    ['person.name:"Elon Musk"', { 'person.name': 'Elon Musk' }],
    ['is_high_quality:1', { is_high_quality: 1 }],
    ['title.starts_with:climate', { title_starts_with: 'climate' }],
  ] as const)('%s', (query, flat) => {
    expect(search({ query, ...window })).toEqual(search({ ...flat, ...window }));
  });
});
