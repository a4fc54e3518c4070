import type { ExactEntityKind } from '../../params/types.js';
import type { ArticleTable } from '../store/table.js';
import {
  authorOf,
  categoryIds,
  entityIds,
  eventCategories,
  eventTypes,
  imageCount,
  imageExtreme,
  industryIds,
  isBreaking,
  isClickbait,
  isDuplicate,
  isFree,
  languageOf,
  mainImage,
  polarity,
  someImage,
  sourceOf,
  topicIds,
} from './row.js';

/** Reads one value of an article by row. */
export type Read<T> = (t: ArticleTable, row: number) => T;

/**
 * How each filterable attribute is read from an indexed article. One table serves
 * the flat filters (`X`, `X.min`, `X.max`, `ignore.X`), the query language
 * (`X:value`), sorting and faceting, so they can never disagree about what a
 * field means. The engine turns each field it uses into a column once
 * (columns.ts); these readers are what the columns are made of.
 */
export type FieldAccessor =
  /** Exact values compared case-insensitively (the article side is already lower-case). */
  | {
      readonly kind: 'keyword';
      readonly values: Read<readonly string[]>;
      /** Set when the field has exactly one value per article: it can live in a column of codes. */
      readonly single?: Read<string>;
    }
  /** `undefined` when the article has no value (an image width without images): no bound matches it. */
  | { readonly kind: 'number'; readonly value: Read<number | undefined> }
  | { readonly kind: 'flag'; readonly test: Read<boolean> }
  /** Names of one entity type: a value matches a name it equals or that holds it as a phrase. */
  | { readonly kind: 'entity-name'; readonly type: string };

const keyword = (values: Read<readonly string[]>): FieldAccessor => ({ kind: 'keyword', values });
const one = (value: Read<string>): FieldAccessor => ({
  kind: 'keyword',
  values: (t, r) => [value(t, r)],
  single: value,
});
const num = (value: Read<number | undefined>): FieldAccessor => ({ kind: 'number', value });
const flag = (test: Read<boolean>): FieldAccessor => ({ kind: 'flag', test });

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

/** Instagram accepts 4:5 portrait up to 1.91:1 landscape. */
const instagramRatio = (w: number, h: number): boolean => h > 0 && w / h >= 0.8 && w / h <= 1.91;

const videos: Read<number> = (t, r) => t.videoCount.data[r] as number;
const rank: Read<number> = (t, r) => sourceOf(t, r).rankings.opr;
const hasAuthor: Read<boolean> = (t, r) => authorOf(t, r).id !== null;
const readTime: Read<number> = (t, r) => t.readTime.data[r] as number;
const ease: Read<number> = (t, r) => t.ease.data[r] as number;

/** The polarities of title and body differ. */
const mixed: Read<boolean> = (t, r) => t.polarityTitle.data[r] !== t.polarityBody.data[r];

function entityNames(type: string): FieldAccessor {
  return { kind: 'entity-name', type };
}

export const FIELDS: Readonly<Record<string, FieldAccessor>> = {
  // Identity and text-like keywords
  'article.id': one((t, r) => String(t.id.data[r])),
  'language.code': one(languageOf),
  'source.country.code': one((t, r) => sourceOf(t, r).location.country_code.toLowerCase()),
  'source.id': one((t, r) => String(sourceOf(t, r).id ?? '')),
  'source.domain': one((t, r) => sourceOf(t, r).domain.toLowerCase()),
  'source.bias': one((t, r) => sourceOf(t, r).bias),
  'source.rank.opr': num(rank),
  is_premium_source: flag((t, r) => sourceOf(t, r).is_premium),
  is_verified_source: flag((t, r) => sourceOf(t, r).is_verified),

  // Classification and entities
  'category.id': keyword(categoryIds),
  'topic.id': keyword(topicIds),
  'industry.id': keyword(industryIds),
  'entity.id': keyword((t, r) => entityIds(t, r).map(String)),
  ...Object.fromEntries(
    Object.entries(ENTITY_NAME_TYPES).map(([kind, type]) => [`${kind}.name`, entityNames(type)]),
  ),
  'event.type': keyword(eventTypes),
  'event.category': keyword(eventCategories),

  // Sentiment
  'sentiment.overall.score': num((t, r) => t.sentimentOverall.data[r] as number),
  'sentiment.title.score': num((t, r) => t.sentimentTitle.data[r] as number),
  'sentiment.body.score': num((t, r) => t.sentimentBody.data[r] as number),
  'sentiment.overall.polarity': one((t, r) => polarity(t.polarityOverall.data[r] as number)),
  'sentiment.title.polarity': one((t, r) => polarity(t.polarityTitle.data[r] as number)),
  'sentiment.body.polarity': one((t, r) => polarity(t.polarityBody.data[r] as number)),
  'sentiment.mixed': flag(mixed),
  'sentiment.consistent': flag((t, r) => !mixed(t, r)),
  sentiment_gap: num((t, r) =>
    Math.abs((t.sentimentTitle.data[r] as number) - (t.sentimentBody.data[r] as number)),
  ),
  is_clickbait: flag(isClickbait),

  // Media: width/height bounds read the largest image ("an image at least 1200 wide").
  'media.images.count': num(imageCount),
  'media.videos.count': num(videos),
  'media.images.width': num((t, r) => imageExtreme(t, r, 'width', 'max')),
  'media.images.height': num((t, r) => imageExtreme(t, r, 'height', 'max')),
  has_image: flag((t, r) => imageCount(t, r) > 0),
  has_video: flag((t, r) => videos(t, r) > 0),
  has_hq_images: flag((t, r) => someImage(t, r, (w) => w >= 1200)),
  is_media_rich: flag((t, r) => imageCount(t, r) > 0 && videos(t, r) > 0),
  is_landscape_media: flag((t, r) => {
    const m = mainImage(t, r);
    return m !== undefined && m[0] > m[1];
  }),
  is_portrait_media: flag((t, r) => {
    const m = mainImage(t, r);
    return m !== undefined && m[1] > m[0];
  }),
  has_multiple_images: flag((t, r) => imageCount(t, r) >= 2),
  has_fullhd_images: flag((t, r) => someImage(t, r, (w) => w >= 1920)),
  has_4k_images: flag((t, r) => someImage(t, r, (w) => w >= 3840)),
  has_mobile_optimized_images: flag((t, r) => someImage(t, r, (w) => w >= 320 && w <= 800)),
  is_instagram_ready: flag((t, r) => someImage(t, r, (w, h) => w >= 1080 && instagramRatio(w, h))),
  is_twitter_card_ready: flag((t, r) => someImage(t, r, (w, h) => w >= 800 && w > h)),
  has_consistent_image_sizes: flag((t, r) => {
    const m = mainImage(t, r);
    return (
      m !== undefined &&
      imageCount(t, r) >= 2 &&
      !someImage(t, r, (w, h) => w !== m[0] || h !== m[1])
    );
  }),
  has_thumbnail: flag((t, r) => someImage(t, r, (w) => w <= 300)),
  has_social_share_image: flag((t, r) => someImage(t, r, (w, h) => w >= 1200 && h >= 630)),
  has_mixed_media: flag((t, r) => imageCount(t, r) > 0 && videos(t, r) > 0),

  // Readability and length
  'readability.fk_grade': num((t, r) => t.fkGrade.data[r] as number),
  'readability.ease': num(ease),
  'readability.ari': num((t, r) => t.ari.data[r] as number),
  'readability.difficulty': one(
    (t, r) => t.dict.difficulties.values[t.difficulty.data[r] as number] as string,
  ),
  'readability.audience': one(
    (t, r) => t.dict.audiences.values[t.audience.data[r] as number] as string,
  ),
  'readability.age': num((t, r) => t.readingAge.data[r] as number),
  read_time: num(readTime),
  is_easy_read: flag((t, r) => ease(t, r) >= 60),
  is_difficult_read: flag((t, r) => ease(t, r) < 40),
  is_long_read: flag((t, r) => readTime(t, r) >= 5),
  is_short_read: flag((t, r) => readTime(t, r) < 3),
  is_quick_read: flag((t, r) => readTime(t, r) <= 2),
  is_medium_read: flag((t, r) => readTime(t, r) >= 3 && readTime(t, r) <= 7),
  is_deep_dive: flag((t, r) => readTime(t, r) >= 10),

  // Location: an article's geo point is its first mentioned place with coordinates.
  has_location_geo: flag((t, r) => t.places.to(r) > t.places.from(r)),

  // Article flags and authors
  is_duplicate: flag(isDuplicate),
  is_paywall: flag((t, r) => !isFree(t, r)),
  is_breaking: flag(isBreaking),
  is_free: flag(isFree),
  is_high_quality: flag(
    (t, r) => !isDuplicate(t, r) && rank(t, r) >= 5 && imageCount(t, r) > 0 && hasAuthor(t, r),
  ),
  has_author: flag(hasAuthor),
  'author.id': keyword((t, r) => {
    const id = authorOf(t, r).id;
    return id === null ? [] : [String(id)];
  }),
  'author.name': one((t, r) => authorOf(t, r).name.toLowerCase()),

  // Counts and shares: sort keys and query fields
  sentences_count: num((t, r) => t.sentencesCount.data[r] as number),
  paragraphs_count: num((t, r) => t.paragraphsCount.data[r] as number),
  characters_count: num((t, r) => t.charactersCount.data[r] as number),
  words_count: num((t, r) => t.wordsCount.data[r] as number),
  'shares.facebook': num((t, r) => t.sharesFacebook.data[r] as number),
  'shares.twitter': num((t, r) => t.sharesTwitter.data[r] as number),
  'shares.reddit': num((t, r) => t.sharesReddit.data[r] as number),
  'shares.total': num(
    (t, r) =>
      (t.sharesFacebook.data[r] as number) +
      (t.sharesTwitter.data[r] as number) +
      (t.sharesReddit.data[r] as number),
  ),
  'story.id': one((t, r) => String(t.story.data[r])),
};

/** Smallest image side, for the `media.images.*.min` sort keys. */
export const narrowest: Read<number | undefined> = (t, r) => imageExtreme(t, r, 'width', 'min');
export const shortest: Read<number | undefined> = (t, r) => imageExtreme(t, r, 'height', 'min');
