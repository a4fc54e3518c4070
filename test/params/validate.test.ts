import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { flagName } from '../../src/params/registry.js';
import { type RawParam, buildRequestBody } from '../../src/params/validate.js';
import type { RawValue } from '../../src/params/types.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const flags = (values: Record<string, RawValue>): RawParam[] =>
  Object.entries(values).map(([name, raw]) => ({ name, raw, label: `--${flagName(name)}` }));
const body = (values: Record<string, RawValue>) => buildRequestBody(flags(values), { now: NOW });

function failure(values: Record<string, RawValue>): UsageError {
  try {
    body(values);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`expected a UsageError for ${JSON.stringify(values)}`);
}

describe('flags → typed request body, per parameter group', () => {
  it.each<[string, Record<string, RawValue>, Record<string, string | number>]>([
    [
      'pagination',
      { page: '2', per_page: '50', 'sort.by': 'relevance', 'sort.order': 'asc' },
      { page: 2, per_page: 50, 'sort.by': 'relevance', 'sort.order': 'asc' },
    ],
    [
      'text',
      { title: '"rate cut"~3', 'ignore.title': 'opinion', prompt: 'tesla news' },
      { title: '"rate cut"~3', 'ignore.title': 'opinion', prompt: 'tesla news' },
    ],
    [
      'dates',
      { 'published_at.start': '2026-11-01', 'published_at.end': '2026-11-20T10:00:00Z' },
      { 'published_at.start': '2026-11-01', 'published_at.end': '2026-11-20T10:00:00Z' },
    ],
    [
      'source lists trimmed',
      { 'language.code': 'en, fr', 'source.country.code': 'us,gb', 'source.bias': 'left,center' },
      { 'language.code': 'en,fr', 'source.country.code': 'us,gb', 'source.bias': 'left,center' },
    ],
    [
      'source rank and flags',
      { 'source.rank.opr.min': '3', is_premium_source: true },
      { 'source.rank.opr.min': 3, is_premium_source: 1 },
    ],
    [
      'classification',
      {
        'category.id': 'medtop:04000000',
        'topic.id': 'industry.technology',
        'event.type': 'ipo,layoffs',
        'event.category': 'business',
      },
      {
        'category.id': 'medtop:04000000',
        'topic.id': 'industry.technology',
        'event.type': 'ipo,layoffs',
        'event.category': 'business',
      },
    ],
    [
      'entities with sentiment',
      {
        'organization.name': 'Tesla',
        'entity.sentiment.polarity': 'negative',
        'entity.sentiment.score.max': '-0.2',
      },
      {
        'organization.name': 'Tesla',
        'entity.sentiment.polarity': 'negative',
        'entity.sentiment.score.max': -0.2,
      },
    ],
    [
      'sentiment',
      {
        'sentiment.overall.score.min': '-0.5',
        'sentiment.title.polarity': 'positive',
        'sentiment.mixed': '1',
        'sentiment_gap.min': '0',
      },
      {
        'sentiment.overall.score.min': -0.5,
        'sentiment.title.polarity': 'positive',
        'sentiment.mixed': 1,
        'sentiment_gap.min': 0,
      },
    ],
    [
      'media',
      { 'media.images.count.min': '2', has_4k_images: '0', 'media.images.width.min': '1200' },
      { 'media.images.count.min': 2, has_4k_images: 0, 'media.images.width.min': 1200 },
    ],
    [
      'readability',
      {
        'readability.ease.min': '60',
        'readability.age.max': '12',
        'readability.audience': 'general',
        read_time: '5',
        is_deep_dive: true,
      },
      {
        'readability.ease.min': 60,
        'readability.age.max': 12,
        'readability.audience': 'general',
        read_time: 5,
        is_deep_dive: 1,
      },
    ],
    [
      'location',
      {
        'location.lat': '48.85',
        'location.lng': '2.35',
        'location.radius': '50',
        'location.bbox': '40,41,-74.5,-73.5',
      },
      {
        'location.lat': 48.85,
        'location.lng': 2.35,
        'location.radius': 50,
        'location.bbox': '40,41,-74.5,-73.5',
      },
    ],
    [
      'article flags and authors',
      { is_breaking: '1', 'author.id': '1,2,3', 'author.name': 'Jane Doe' },
      { is_breaking: 1, 'author.id': '1,2,3', 'author.name': 'Jane Doe' },
    ],
    [
      'highlighting',
      { hl: 'true', 'hl.fl': 'title,body', 'hl.fragsize': '200', search: 'inflation' },
      { hl: '1', 'hl.fl': 'title,body', 'hl.fragsize': 200, search: 'inflation' },
    ],
    [
      'facets',
      {
        facet: '1',
        'facet.field': 'source.id,language.id',
        'facet.limit': '20',
        'facet.range': 'false',
        'facet.range.gap': '+1DAY',
      },
      {
        facet: '1',
        'facet.field': 'source.id,language.id',
        'facet.limit': 20,
        'facet.range': '0',
        'facet.range.gap': '+1DAY',
      },
    ],
    ['output', { fl: 'id,title' }, { fl: 'id,title' }],
  ])('%s', (_group, input, expected) => {
    expect(body(input)).toEqual(expected);
  });

  it('keeps the table order, not the order the flags were given', () => {
    expect(Object.keys(body({ 'sort.by': 'id', page: 1 }))).toEqual(['page', 'sort.by']);
  });
});

describe('validation before sending', () => {
  it.each<[string, Record<string, RawValue>, RegExp, string | undefined]>([
    [
      'per_page above 250',
      { per_page: '500' },
      /--per-page must be an integer from 1 to 250/,
      undefined,
    ],
    ['page below 1', { page: '0' }, /--page must be an integer at least 1/, undefined],
    ['not an integer', { 'readability.age': '7.5' }, /must be an integer from 6 to 22/, undefined],
    ['score out of range', { 'sentiment.overall.score': '2' }, /from -1 to 1/, undefined],
    [
      'radius must be above 0',
      { 'location.lat': '1', 'location.lng': '1', 'location.radius': '0' },
      /greater than 0 and at most 20000/,
      undefined,
    ],
    ['bad enum', { 'sort.by': 'popularity' }, /--sort-by must be one of published_at/, undefined],
    ['bad list value', { 'event.type': 'ipo,party' }, /each value must be one of/, undefined],
    ['bad flag value', { has_image: '2' }, /--has-image must be 0 or 1/, undefined],
    ['bad switch', { hl: 'yes' }, /--hl must be 0, 1, true or false/, undefined],
    ['title too short', { title: 'a' }, /--title must be at least 2 characters/, undefined],
    [
      'title pattern too long',
      { title_pattern: 'x'.repeat(201) },
      /at most 200 characters/,
      undefined,
    ],
    ['prompt too short (ER0800)', { prompt: 'hi' }, /at least 3 characters/, 'ER0800'],
    [
      'entity name too long',
      { 'person.name': 'x'.repeat(121) },
      /at most 120 characters/,
      undefined,
    ],
    [
      'author name too long',
      { 'author.name': 'x'.repeat(101) },
      /at most 100 characters/,
      undefined,
    ],
    [
      'four languages',
      { 'language.code': 'en,fr,de,es' },
      /at most 3 values \(got 4\).*silently drop/,
      undefined,
    ],
    [
      'six event types',
      { 'event.type': 'ipo,layoffs,recall,crime,flood,drought' },
      /at most 5 values/,
      undefined,
    ],
    ['six article ids', { 'article.id': '1,2,3,4,5,6' }, /at most 5 values/, undefined],
    ['bad category slug', { 'category.id': 'sports' }, /IPTC media topic/, undefined],
    ['bad language code', { 'language.code': 'english' }, /ISO 639-1/, undefined],
    [
      'wildcard in title',
      { title: 'tesl*' },
      /--title must not contain a wildcard.*silently drop/,
      undefined,
    ],
    ['wildcard in a name filter', { 'organization.name': 'Goo?le' }, /wildcard/, undefined],
    ['bad date', { 'published_at.start': 'last tuesday' }, /must be a date/, undefined],
    [
      'start after end',
      { 'published_at.start': '2026-11-10', 'published_at.end': '2026-11-01' },
      /is after --published-at-end/,
      undefined,
    ],
    [
      'min above max',
      { 'read_time.min': '10', 'read_time.max': '5' },
      /--read-time-min \(10\) is greater than --read-time-max \(5\)/,
      undefined,
    ],
    [
      'ER0293 polarity without selector',
      { 'entity.sentiment.polarity': 'negative' },
      /needs an entity selector/,
      'ER0293',
    ],
    [
      'ER0110 title over 40 days',
      { title: 'rates', 'published_at.start': '2026-09-01', 'published_at.end': '2026-10-10' },
      /--title searches at most 31 days.*40 days/,
      'ER0110',
    ],
    [
      'ER0110 start only, long ago',
      { title_starts_with: 'Fed', 'published_at.start': '2026-01-01' },
      /--title-starts-with searches at most 31 days/,
      'ER0110',
    ],
    [
      'radius without lat/lng',
      { 'location.radius': '10' },
      /--location-radius needs both --location-lat and --location-lng/,
      undefined,
    ],
    ['lat without lng', { 'location.lat': '10' }, /--location-lat needs --location-lng/, undefined],
    ['bad bbox', { 'location.bbox': '41,40,-74,-73' }, /minLat,maxLat,minLng,maxLng/, undefined],
    ['search without hl', { search: 'inflation' }, /--search only affects highlighting/, undefined],
  ])('%s', (_name, input, message, code) => {
    const error = failure(input);
    expect(error.message).toMatch(message);
    expect(error.code).toBe(code);
    if (code) expect(error.message).toContain(`[${code}]`);
  });

  it('accepts a title search over exactly 31 days, counting a date-only end as the whole day', () => {
    expect(
      body({
        title: 'rates',
        'published_at.start': '2026-10-01',
        'published_at.end': '2026-10-31',
      }),
    ).toMatchObject({ title: 'rates' });
  });

  it('accepts entity sentiment with any entity selector', () => {
    for (const selector of ['entity.id', 'person.name', 'location.name', 'sport.name']) {
      const value = selector === 'entity.id' ? '42' : 'Paris';
      expect(body({ [selector]: value, 'entity.sentiment.polarity': 'positive' })).toHaveProperty(
        'entity.sentiment.polarity',
        'positive',
      );
    }
  });

  it('names --param assignments by their API name', () => {
    expect(() =>
      buildRequestBody([{ name: 'per_page', raw: '0', label: '--param per_page' }]),
    ).toThrow(/^--param per_page must be an integer/);
  });

  it('refuses an unknown --param name: the service would ignore it silently', () => {
    expect(() =>
      buildRequestBody([{ name: 'langauge.code', raw: 'en', label: '--param langauge.code' }]),
    ).toThrow(/is not a parameter of this endpoint/);
  });
});
