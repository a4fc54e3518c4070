import { normalizeCategoryId } from './category-id.js';
import {
  BIAS,
  EVENT_CATEGORIES,
  EVENT_TYPES,
  FACET_FIELDS,
  HL_FIELDS,
  POLARITY,
  SORT_BY,
  SWITCH,
} from './search-values.js';
import type { ExactEntityKind, ParamDef, ParamGroup } from './types.js';

/**
 * Every request parameter of the search endpoint (`POST /v1/news/everything`), from
 * spec/news-api.md plus what spec/openapi.json adds (`fl`, `facet.range.*`,
 * three more `sort.by` values). The other news endpoints take the same filters.
 * Pure data: importing this file costs nothing at start-up.
 */

const ISO_LANGUAGE = /^[a-z]{2}$/i;
const ISO_COUNTRY = /^[a-z]{2}$/i;
const DIGITS = /^\d+$/;

type Extra = Partial<Omit<ParamDef, 'name' | 'group' | 'type' | 'help'>>;
const p = (
  name: string,
  group: ParamGroup,
  type: ParamDef['type'],
  help: string,
  extra: Extra = {},
): ParamDef => ({ name, group, type, help, ...extra });

/** `X`, `X.min`, `X.max` for a numeric attribute. */
function range(
  base: string,
  group: ParamGroup,
  type: 'integer' | 'number',
  what: string,
  bounds: Extra,
  withExact = true,
): ParamDef[] {
  return [
    ...(withExact ? [p(base, group, type, `${what}, exactly`, bounds)] : []),
    p(`${base}.min`, group, type, `${what}, at least`, bounds),
    p(`${base}.max`, group, type, `${what}, at most`, bounds),
  ];
}

const flag = (name: string, group: ParamGroup, help: string): ParamDef =>
  p(name, group, 'flag', help);

/** A comma-separated filter and its `ignore.` counterpart. */
function pair(name: string, group: ParamGroup, what: string, extra: Extra): ParamDef[] {
  return [
    p(name, group, 'string', `only ${what}`, extra),
    p(`ignore.${name}`, group, 'string', `exclude ${what}`, extra),
  ];
}

function entityName(kind: string, exact?: ExactEntityKind): ParamDef[] {
  const extra: Extra = {
    list: 3,
    maxLength: 120,
    noWildcard: true,
    entitySelector: true,
    ...(exact ? { exactEntity: exact } : {}),
  };
  const known = exact ? ' (must match a known entity exactly)' : '';
  return [
    p(
      `${kind}.name`,
      'Classification',
      'string',
      `articles mentioning these ${kind} names${known}`,
      extra,
    ),
    p(
      `ignore.${kind}.name`,
      'Classification',
      'string',
      `exclude articles mentioning these ${kind} names`,
      {
        list: 3,
        maxLength: 120,
        noWildcard: true,
      },
    ),
  ];
}

const TITLE_TEXT: Extra = { minLength: 2, maxLength: 100, titleWindow: true, noWildcard: true };
const SCORE: Extra = { min: -1, max: 1 };

export const SEARCH_PARAMS: readonly ParamDef[] = [
  // Pagination and sorting
  p('page', 'Pagination', 'integer', 'page number', { min: 1, default: 1 }),
  p(
    'per_page',
    'Pagination',
    'integer',
    'results per page (plan caps: Free 10, Starter 50, Basic 200)',
    {
      min: 1,
      max: 250,
      default: 100,
    },
  ),
  p('sort.by', 'Pagination', 'string', 'sort field', { enum: SORT_BY, default: 'published_at' }),
  p('sort.order', 'Pagination', 'string', 'sort direction', {
    enum: ['asc', 'desc'],
    default: 'desc',
  }),

  // Text, query and prompt
  p('title', 'Text', 'string', 'words or a "quoted phrase"~N in the title', TITLE_TEXT),
  // Not title-based in the spec's sense: no 31-day window.
  p('ignore.title', 'Text', 'string', 'exclude titles containing this text', {
    minLength: 2,
    maxLength: 100,
    noWildcard: true,
  }),
  p('title_starts_with', 'Text', 'string', 'titles starting with this text', TITLE_TEXT),
  p('title_ends_with', 'Text', 'string', 'titles ending with this text', TITLE_TEXT),
  p('title_pattern', 'Text', 'string', 'titles matching this pattern', {
    minLength: 2,
    maxLength: 200,
    titleWindow: true,
  }),
  p('query', 'Text', 'string', 'boolean query (see `news query fields`)', {
    maxLength: 4000,
    // The query language's limits share one code (QUERY-LANGUAGE.md, "Limits").
    code: 'ER0711',
    titleWindow: true,
  }),
  p(
    'prompt',
    'Text',
    'string',
    'plain-language request turned into filters (Basic plan and above)',
    {
      minLength: 3,
      maxLength: 500,
      code: 'ER0800',
    },
  ),
  p('search', 'Text', 'string', 'extra terms to highlight (needs --hl 1; never filters)'),
  p('article.id', 'Text', 'string', 'article ids', {
    list: 5,
    pattern: DIGITS,
    patternHint: 'a numeric id',
  }),

  // Dates
  p('published_at', 'Dates', 'date', 'published on this day (YYYY-MM-DD, ISO 8601, today…)'),
  p('published_at.start', 'Dates', 'date', 'published at or after (YYYY-MM-DD, ISO 8601, -24h…)'),
  p('published_at.end', 'Dates', 'date', 'published at or before (YYYY-MM-DD, ISO 8601, now…)'),

  // Language, country, source
  ...pair('language.code', 'Source', 'these languages (ISO 639-1)', {
    list: 3,
    pattern: ISO_LANGUAGE,
    patternHint: 'a two-letter ISO 639-1 code',
    codes: 'language',
  }),
  ...pair('source.country.code', 'Source', 'sources from these countries (ISO 3166-1 alpha-2)', {
    list: 3,
    pattern: ISO_COUNTRY,
    patternHint: 'a two-letter ISO 3166-1 code',
    codes: 'country',
  }),
  ...pair('source.id', 'Source', 'these source ids', {
    list: 3,
    pattern: DIGITS,
    patternHint: 'a numeric id',
  }),
  ...pair('source.domain', 'Source', 'these source domains', { list: 3, noWildcard: true }),
  ...pair('source.bias', 'Source', 'sources of this political bias', { list: 3, enum: BIAS }),
  ...range('source.rank.opr', 'Source', 'integer', 'source authority score', { min: 0 }, false),
  flag('is_premium_source', 'Source', 'premium sources only (1) or none (0)'),
  flag('is_verified_source', 'Source', 'verified sources only (1) or none (0)'),

  // Classification and entities
  ...pair(
    'category.id',
    'Classification',
    'these IPTC categories (medtop:<digits> or the number)',
    {
      list: 3,
      normalize: normalizeCategoryId,
      pattern: /^medtop:\d{8}$/,
      patternHint: 'an IPTC media topic such as medtop:04000000 or 4000000',
    },
  ),
  ...pair(
    'topic.id',
    'Classification',
    'these topics (<group>.<name>, see `news suggest topics`)',
    {
      list: 3,
      pattern: /^[\w-]+\.[\w.-]+$/,
      patternHint: 'a topic slug such as industry.technology',
    },
  ),
  ...pair('industry.id', 'Classification', 'these industry ids', {
    list: 3,
    pattern: DIGITS,
    patternHint: 'a numeric id',
  }),
  p('entity.id', 'Classification', 'string', 'articles mentioning these entity ids', {
    list: 3,
    pattern: DIGITS,
    patternHint: 'a numeric id',
    entitySelector: true,
  }),
  p(
    'ignore.entity.id',
    'Classification',
    'string',
    'exclude articles mentioning these entity ids',
    {
      list: 3,
      pattern: DIGITS,
      patternHint: 'a numeric id',
    },
  ),
  ...entityName('person'),
  ...entityName('organization'),
  ...entityName('location', 'location'),
  ...entityName('brand', 'brand'),
  ...entityName('disaster', 'disaster'),
  ...entityName('disease', 'disease'),
  ...entityName('event', 'event'),
  ...entityName('sport', 'sport'),
  p(
    'entity.sentiment.polarity',
    'Classification',
    'string',
    'sentiment toward the selected entities',
    {
      enum: POLARITY,
      code: 'ER0293',
    },
  ),
  ...range(
    'entity.sentiment.score',
    'Classification',
    'number',
    'sentiment score toward the selected entities (without a selector: toward any entity)',
    SCORE,
    false,
  ),
  ...pair('event.type', 'Classification', 'these event types (see `news event-types`)', {
    list: 5,
    enum: EVENT_TYPES,
  }),
  p('event.category', 'Classification', 'string', 'event category', { enum: EVENT_CATEGORIES }),

  // Sentiment
  ...(['overall', 'title', 'body'] as const).flatMap((part) => [
    ...range(`sentiment.${part}.score`, 'Sentiment', 'number', `${part} sentiment score`, SCORE),
    p(`sentiment.${part}.polarity`, 'Sentiment', 'string', `${part} sentiment polarity`, {
      enum: POLARITY,
    }),
  ]),
  flag('sentiment.mixed', 'Sentiment', 'title polarity differs from body polarity'),
  flag('sentiment.consistent', 'Sentiment', 'title polarity equals body polarity'),
  ...range(
    'sentiment_gap',
    'Sentiment',
    'number',
    'gap between title and body scores',
    { min: 0, max: 2 },
    false,
  ),
  flag('is_clickbait', 'Sentiment', 'clickbait titles'),

  // Media
  ...range('media.images.count', 'Media', 'integer', 'number of images', { min: 0 }),
  ...range('media.videos.count', 'Media', 'integer', 'number of videos', { min: 0 }),
  ...range('media.images.width', 'Media', 'integer', 'image width in pixels', { min: 0 }, false),
  ...range('media.images.height', 'Media', 'integer', 'image height in pixels', { min: 0 }, false),
  flag('has_image', 'Media', 'has an image'),
  flag('has_video', 'Media', 'has a video'),
  flag('has_hq_images', 'Media', 'images at least 1200 px wide'),
  flag('is_media_rich', 'Media', 'has images and videos'),
  flag('is_landscape_media', 'Media', 'landscape images'),
  flag('is_portrait_media', 'Media', 'portrait images'),
  flag('has_multiple_images', 'Media', 'two or more images'),
  flag('has_fullhd_images', 'Media', 'images at least 1920 px wide'),
  flag('has_4k_images', 'Media', 'images at least 3840 px wide'),
  flag('has_mobile_optimized_images', 'Media', 'images 320 to 800 px wide'),
  flag('is_instagram_ready', 'Media', 'images at least 1080 px with an Instagram aspect ratio'),
  flag('is_twitter_card_ready', 'Media', 'landscape images at least 800 px wide'),
  flag('has_consistent_image_sizes', 'Media', 'all images the same size'),
  flag('has_thumbnail', 'Media', 'a thumbnail (at most 300 px)'),
  flag('has_social_share_image', 'Media', 'a social share image (at least 1200x630)'),
  flag('has_mixed_media', 'Media', 'several kinds of media'),

  // Readability and length
  ...range('readability.fk_grade', 'Readability', 'number', 'Flesch-Kincaid grade', {
    min: 0,
    max: 30,
  }),
  ...range('readability.ease', 'Readability', 'number', 'Flesch reading ease', {
    min: 0,
    max: 100,
  }),
  ...range('readability.ari', 'Readability', 'number', 'automated readability index', {
    min: 0,
    max: 30,
  }),
  p('readability.difficulty', 'Readability', 'string', 'reading difficulty', {
    enum: ['beginner', 'intermediate', 'advanced', 'expert'],
  }),
  p('readability.audience', 'Readability', 'string', 'intended audience', {
    enum: ['children', 'general', 'professional', 'academic'],
  }),
  ...range('readability.age', 'Readability', 'integer', 'reading age in years', {
    min: 6,
    max: 22,
  }),
  ...range('read_time', 'Readability', 'integer', 'reading time in minutes', { min: 0, max: 1000 }),
  flag('is_easy_read', 'Readability', 'reading ease 60 or more'),
  flag('is_difficult_read', 'Readability', 'reading ease under 40'),
  flag('is_long_read', 'Readability', '5 minutes or more'),
  flag('is_short_read', 'Readability', 'under 3 minutes'),
  flag('is_quick_read', 'Readability', '2 minutes or less'),
  flag('is_medium_read', 'Readability', '3 to 7 minutes'),
  flag('is_deep_dive', 'Readability', '10 minutes or more'),

  // Location
  p('location.bbox', 'Location', 'string', 'bounding box minLat,maxLat,minLng,maxLng'),
  flag('has_location_geo', 'Location', 'has coordinates'),
  p('location.lat', 'Location', 'number', 'latitude of the search centre', { min: -90, max: 90 }),
  p('location.lng', 'Location', 'number', 'longitude of the search centre', {
    min: -180,
    max: 180,
  }),
  p('location.radius', 'Location', 'number', 'radius in km around lat/lng (needs both)', {
    min: 0,
    exclusiveMin: true,
    max: 20000,
  }),
  p('location.radius.min', 'Location', 'number', 'minimum distance in km from lat/lng', {
    min: 0,
    max: 20000,
  }),

  // Article flags and authors
  flag('is_duplicate', 'Flags', 'duplicates only (1) or none (0)'),
  flag('is_paywall', 'Flags', 'behind a paywall'),
  flag('is_breaking', 'Flags', 'breaking news'),
  flag('is_high_quality', 'Flags', 'not duplicate, rank 5 or more, has images and an author'),
  flag('has_author', 'Flags', 'has an author'),
  ...pair('author.id', 'Flags', 'these author ids', {
    list: 3,
    pattern: DIGITS,
    patternHint: 'a numeric id',
  }),
  ...pair('author.name', 'Flags', 'these author names (the first matching record only)', {
    list: 3,
    maxLength: 100,
    noWildcard: true,
  }),

  // Highlighting
  p('hl', 'Highlighting', 'switch', 'highlight matches', { enum: SWITCH }),
  p('hl.fl', 'Highlighting', 'string', 'fields to highlight', {
    list: 5,
    enum: HL_FIELDS,
    default: 'title,description',
  }),
  p('hl.fragsize', 'Highlighting', 'integer', 'snippet size in characters', {
    min: 50,
    max: 500,
    default: 150,
  }),
  p('hl.snippets', 'Highlighting', 'integer', 'snippets per field', {
    min: 1,
    max: 10,
    default: 3,
  }),
  p('hl.tag.pre', 'Highlighting', 'string', 'tag before a match', { default: '<em>' }),
  p('hl.tag.post', 'Highlighting', 'string', 'tag after a match', { default: '</em>' }),

  // Faceting
  p('facet', 'Facets', 'switch', 'compute facets', { enum: SWITCH }),
  p('facet.field', 'Facets', 'string', 'fields to facet on', { list: 5, enum: FACET_FIELDS }),
  p('facet.limit', 'Facets', 'integer', 'values per facet', { min: 1, max: 100, default: 10 }),
  p('facet.mincount', 'Facets', 'integer', 'minimum count of a facet value', {
    min: 1,
    default: 1,
  }),
  p('facet.range', 'Facets', 'switch', 'compute range facets', { enum: SWITCH }),
  p('facet.range.field', 'Facets', 'string', 'field for range facets'),
  p('facet.range.start', 'Facets', 'string', 'start of the range facets'),
  p('facet.range.end', 'Facets', 'string', 'end of the range facets'),
  p('facet.range.gap', 'Facets', 'string', 'gap between range facets', { default: '+1DAY' }),

  // Output shaping done by the server
  p('fl', 'Output', 'string', 'fields the server returns (id,title,source.domain)'),
];
