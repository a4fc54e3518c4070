import type { ExactEntityKind } from '../../params/types.js';
import type { Doc, DocImage } from './types.js';

/**
 * How each filterable attribute is read from an indexed article. One table serves
 * the flat filters (`X`, `X.min`, `X.max`, `ignore.X`), the query language
 * (`X:value`), sorting and faceting, so they can never disagree about what a
 * field means.
 */
export type FieldAccessor =
  /** Exact values compared case-insensitively (the doc side is already lower-case). */
  | {
      readonly kind: 'keyword';
      readonly values: (doc: Doc) => readonly string[];
      /** Set when the field has exactly one value per article: it can live in a column. */
      readonly single?: (doc: Doc) => string;
    }
  /** `undefined` when the article has no value (an image width without images): no bound matches it. */
  | { readonly kind: 'number'; readonly value: (doc: Doc) => number | undefined }
  | { readonly kind: 'flag'; readonly test: (doc: Doc) => boolean }
  /** Names of one entity type: a value matches a name it equals or that holds it as a phrase. */
  | { readonly kind: 'entity-name'; readonly type: string };

const keyword = (values: (doc: Doc) => readonly string[]): FieldAccessor => ({
  kind: 'keyword',
  values,
});
const one = (value: (doc: Doc) => string): FieldAccessor => ({
  kind: 'keyword',
  values: (doc) => [value(doc)],
  single: value,
});
const num = (value: (doc: Doc) => number | undefined): FieldAccessor => ({ kind: 'number', value });
const flag = (test: (doc: Doc) => boolean): FieldAccessor => ({ kind: 'flag', test });

/** Entity kinds of the `*.name` filters → the article schema's entity type. */
export const ENTITY_NAME_TYPES: Readonly<Record<string, string>> = {
  person: 'person',
  organization: 'organization',
  location: 'location',
  brand: 'brand',
  disaster: 'natural-disaster',
  disease: 'disease',
  event: 'event',
  sport: 'sport',
} satisfies Record<ExactEntityKind | 'person' | 'organization', string>;

const widest = (doc: Doc): number | undefined => maxOf(doc.images, (i) => i.width);
const tallest = (doc: Doc): number | undefined => maxOf(doc.images, (i) => i.height);

function maxOf(images: readonly DocImage[], pick: (i: DocImage) => number): number | undefined {
  let best: number | undefined;
  for (const i of images) if (best === undefined || pick(i) > best) best = pick(i);
  return best;
}

function minOf(images: readonly DocImage[], pick: (i: DocImage) => number): number | undefined {
  let best: number | undefined;
  for (const i of images) if (best === undefined || pick(i) < best) best = pick(i);
  return best;
}

const someImage = (doc: Doc, test: (i: DocImage) => boolean): boolean => doc.images.some(test);
const main = (doc: Doc): DocImage | undefined => doc.images[0];

/** Instagram accepts 4:5 portrait up to 1.91:1 landscape. */
const instagramRatio = (i: DocImage): boolean =>
  i.height > 0 && i.width / i.height >= 0.8 && i.width / i.height <= 1.91;

function entityNames(type: string): FieldAccessor {
  return { kind: 'entity-name', type };
}

export const FIELDS: Readonly<Record<string, FieldAccessor>> = {
  // Identity and text-like keywords
  'article.id': one((d) => String(d.id)),
  'language.code': one((d) => d.language),
  'source.country.code': one((d) => d.sourceCountry),
  'source.id': one((d) => String(d.sourceId ?? '')),
  'source.domain': one((d) => d.sourceDomain),
  'source.bias': one((d) => d.sourceBias),
  'source.rank.opr': num((d) => d.sourceRank),
  is_premium_source: flag((d) => d.isPremiumSource),
  is_verified_source: flag((d) => d.isVerifiedSource),

  // Classification and entities
  'category.id': keyword((d) => d.categoryIds),
  'topic.id': keyword((d) => d.topicIds),
  'industry.id': keyword((d) => d.industryIds),
  'entity.id': keyword((d) => d.entities.map((e) => String(e.id))),
  ...Object.fromEntries(
    Object.entries(ENTITY_NAME_TYPES).map(([kind, type]) => [`${kind}.name`, entityNames(type)]),
  ),
  'event.type': keyword((d) => d.eventTypes),
  'event.category': keyword((d) => d.eventCategories),

  // Sentiment
  'sentiment.overall.score': num((d) => d.sentimentOverall),
  'sentiment.title.score': num((d) => d.sentimentTitle),
  'sentiment.body.score': num((d) => d.sentimentBody),
  'sentiment.overall.polarity': one((d) => d.polarityOverall),
  'sentiment.title.polarity': one((d) => d.polarityTitle),
  'sentiment.body.polarity': one((d) => d.polarityBody),
  'sentiment.mixed': flag((d) => d.polarityTitle !== d.polarityBody),
  'sentiment.consistent': flag((d) => d.polarityTitle === d.polarityBody),
  sentiment_gap: num((d) => Math.abs(d.sentimentTitle - d.sentimentBody)),
  is_clickbait: flag((d) => d.isClickbait),

  // Media: width/height bounds read the largest image ("an image at least 1200 wide").
  'media.images.count': num((d) => d.images.length),
  'media.videos.count': num((d) => d.videoCount),
  'media.images.width': num(widest),
  'media.images.height': num(tallest),
  has_image: flag((d) => d.images.length > 0),
  has_video: flag((d) => d.videoCount > 0),
  has_hq_images: flag((d) => someImage(d, (i) => i.width >= 1200)),
  is_media_rich: flag((d) => d.images.length > 0 && d.videoCount > 0),
  is_landscape_media: flag((d) => {
    const m = main(d);
    return m !== undefined && m.width > m.height;
  }),
  is_portrait_media: flag((d) => {
    const m = main(d);
    return m !== undefined && m.height > m.width;
  }),
  has_multiple_images: flag((d) => d.images.length >= 2),
  has_fullhd_images: flag((d) => someImage(d, (i) => i.width >= 1920)),
  has_4k_images: flag((d) => someImage(d, (i) => i.width >= 3840)),
  has_mobile_optimized_images: flag((d) => someImage(d, (i) => i.width >= 320 && i.width <= 800)),
  is_instagram_ready: flag((d) => someImage(d, (i) => i.width >= 1080 && instagramRatio(i))),
  is_twitter_card_ready: flag((d) => someImage(d, (i) => i.width >= 800 && i.width > i.height)),
  has_consistent_image_sizes: flag(
    (d) =>
      d.images.length >= 2 &&
      d.images.every((i) => i.width === d.images[0]?.width && i.height === d.images[0].height),
  ),
  has_thumbnail: flag((d) => someImage(d, (i) => i.width <= 300)),
  has_social_share_image: flag((d) => someImage(d, (i) => i.width >= 1200 && i.height >= 630)),
  has_mixed_media: flag((d) => d.images.length > 0 && d.videoCount > 0),

  // Readability and length
  'readability.fk_grade': num((d) => d.fkGrade),
  'readability.ease': num((d) => d.ease),
  'readability.ari': num((d) => d.ari),
  'readability.difficulty': one((d) => d.difficulty),
  'readability.audience': one((d) => d.audience),
  'readability.age': num((d) => d.readingAge),
  read_time: num((d) => d.readTime),
  is_easy_read: flag((d) => d.ease >= 60),
  is_difficult_read: flag((d) => d.ease < 40),
  is_long_read: flag((d) => d.readTime >= 5),
  is_short_read: flag((d) => d.readTime < 3),
  is_quick_read: flag((d) => d.readTime <= 2),
  is_medium_read: flag((d) => d.readTime >= 3 && d.readTime <= 7),
  is_deep_dive: flag((d) => d.readTime >= 10),

  // Location: an article's geo point is its first mentioned place with coordinates.
  has_location_geo: flag((d) => d.places.length > 0),

  // Article flags and authors
  is_duplicate: flag((d) => d.isDuplicate),
  is_paywall: flag((d) => d.isPaywall),
  is_breaking: flag((d) => d.isBreaking),
  is_free: flag((d) => d.isFree),
  is_high_quality: flag(
    (d) => !d.isDuplicate && d.sourceRank >= 5 && d.images.length > 0 && d.authorId !== null,
  ),
  has_author: flag((d) => d.authorId !== null),
  'author.id': keyword((d) => (d.authorId === null ? [] : [String(d.authorId)])),
  'author.name': one((d) => d.authorName.toLowerCase()),

  // Counts and shares: sort keys and query fields
  sentences_count: num((d) => d.sentencesCount),
  paragraphs_count: num((d) => d.paragraphsCount),
  characters_count: num((d) => d.charactersCount),
  words_count: num((d) => d.wordsCount),
  'shares.facebook': num((d) => d.sharesFacebook),
  'shares.twitter': num((d) => d.sharesTwitter),
  'shares.reddit': num((d) => d.sharesReddit),
  'shares.total': num((d) => d.sharesFacebook + d.sharesTwitter + d.sharesReddit),
  'story.id': one((d) => String(d.storyId ?? '')),
};

/** Smallest image side, for the `media.images.*.min` sort keys. */
export const narrowest = (doc: Doc): number | undefined => minOf(doc.images, (i) => i.width);
export const shortest = (doc: Doc): number | undefined => minOf(doc.images, (i) => i.height);
