/**
 * The fixed values of the search endpoint's parameters (spec/news-api.md,
 * spec/openapi.json): sort keys, event types and their categories, facet and
 * highlight fields. The parameter table (search-params.ts) and the mock read
 * them from here. Pure data.
 */

export const POLARITY = ['positive', 'negative', 'neutral'] as const;
export const BIAS = ['left', 'center', 'right'] as const;
export const SWITCH = ['0', '1', 'true', 'false'] as const;

export const SORT_BY = [
  'published_at',
  'relevance',
  'engagement',
  'quality',
  'controversy',
  'trust',
  'id',
  'new',
  'created_at',
  'source.rank.opr',
  'sentiment.overall.score',
  'sentiment.title.score',
  'sentiment.body.score',
  'read_time',
  // In spec/openapi.json only; the client accepts both documents.
  'sentences_count',
  'paragraphs_count',
  'characters_count',
  'media.images.count',
  'media.videos.count',
  'media.images.width.min',
  'media.images.width.max',
  'media.images.height.min',
  'media.images.height.max',
  'media_richness',
  'shares.facebook.min',
  'shares.facebook.max',
  'shares.twitter.min',
  'shares.twitter.max',
  'shares.reddit.min',
  'shares.reddit.max',
] as const;

/**
 * The 44 event codes and their categories. The specification fixes a few
 * (merger-acquisition, ipo, layoffs: business; election, protest: society;
 * earthquake, wildfire: environment); the rest follow the same split: company
 * events are business, human affairs society, natural ones environment.
 */
export const EVENT_TYPE_CATEGORY = {
  'merger-acquisition': 'business',
  ipo: 'business',
  layoffs: 'business',
  bankruptcy: 'business',
  'product-launch': 'business',
  'funding-round': 'business',
  earnings: 'business',
  partnership: 'business',
  'executive-change': 'business',
  lawsuit: 'business',
  'data-breach': 'business',
  recall: 'business',
  expansion: 'business',
  closure: 'business',
  'stock-movement': 'business',
  'contract-award': 'business',
  'spin-off': 'business',
  'regulatory-action': 'business',
  election: 'society',
  protest: 'society',
  crime: 'society',
  terrorism: 'society',
  accident: 'society',
  'policy-change': 'society',
  scandal: 'society',
  death: 'society',
  'award-ceremony': 'society',
  conflict: 'society',
  diplomacy: 'society',
  'health-crisis': 'society',
  migration: 'society',
  'human-rights': 'society',
  earthquake: 'environment',
  hurricane: 'environment',
  flood: 'environment',
  wildfire: 'environment',
  tornado: 'environment',
  tsunami: 'environment',
  'volcanic-eruption': 'environment',
  drought: 'environment',
  'climate-event': 'environment',
  pollution: 'environment',
  'wildlife-event': 'environment',
  avalanche: 'environment',
} as const;

export const EVENT_TYPES = Object.keys(EVENT_TYPE_CATEGORY) as (keyof typeof EVENT_TYPE_CATEGORY)[];

export const EVENT_CATEGORIES = ['business', 'society', 'environment'] as const;

export const FACET_FIELDS = [
  'source.id',
  'source.country.id',
  'source.bias',
  'language.id',
  'author.id',
  'category.id',
  'topic.id',
  'industry.id',
  'entity.id',
  'sentiment.overall.polarity',
  'sentiment.title.polarity',
  'sentiment.body.polarity',
  'sentiment.strength',
  'is_duplicate',
  'is_free',
  'is_important',
  'media.images.count',
  'media.videos.count',
  'read_time',
  'content.length',
  'published.year',
  'published.month',
  'published.day_of_week',
  'published.hour',
  'published.weekday',
  'published.time_of_day',
] as const;

export const HL_FIELDS = ['title', 'description', 'body'] as const;
