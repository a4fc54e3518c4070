/**
 * What `POST /__mock/articles` accepts: the document's article schema (types,
 * enums, nullability), every field optional. A posted article is completed
 * from a blank one field by field (objects merged, arrays replaced), so a
 * field that is present must have the type the index and every route read;
 * one bad article used to make every later search answer 500.
 *
 * Fields beyond the document's schema that the mock's filters read
 * (`events`, `is_clickbait`, media sizes, the source's name and flags) are
 * typed here too; other unknown top-level fields are kept as sent (the
 * document allows additional properties) and nested unknown ones dropped.
 */
import { z } from 'zod';
import { ENTITY_TYPES } from '../params/query/fields.js';

/** Longest text field accepted; the whole body is bounded by the route's byte limit anyway. */
export const MAX_TEXT_LENGTH = 1_000_000;

const text = z.string().max(MAX_TEXT_LENGTH);
const nullableText = text.nullable();
const int = z.number().int();
const count = z.number().int().min(0);
const score = z.number().min(-1).max(1);
const polarity = z.enum(['positive', 'negative', 'neutral', '']);
const sentimentScore = z.object({ score, polarity });
const pos = z.object({ start: count, end: count });

const entity = z.object({
  id: int.positive(),
  name: text.min(1),
  type: z.enum(ENTITY_TYPES),
  frequency: count.optional(),
  sentiment: z
    .object({
      score,
      polarity,
      mentions: z.object({ positive: count, neutral: count, negative: count }).optional(),
    })
    .optional(),
  title: z.object({ pos: z.array(pos) }).optional(),
  body: z.object({ pos: z.array(pos) }).optional(),
  links: z.object({ self: text, wikipedia: text.optional(), wikidata: text.optional() }).optional(),
  metadata: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .optional(),
});

const source = z.object({
  id: int.nonnegative().nullable(),
  domain: text,
  home_page_url: text,
  type: text,
  bias: z.enum(['left', 'center', 'right']),
  rankings: z.object({ opr: z.number().min(0) }),
  location: z.object({ country_name: text, country_code: text }),
  favicon: text,
  name: text,
  is_premium: z.boolean(),
  is_verified: z.boolean(),
});

const readability = z.object({
  flesch_kincaid_grade: z.number(),
  flesch_reading_ease: z.number(),
  automated_readability_index: z.number(),
  difficulty_level: z.enum(['beginner', 'intermediate', 'advanced', 'expert', 'unknown']),
  target_audience: z.enum(['children', 'general', 'professional', 'academic', 'unknown']),
  reading_age: z.number(),
  avg_words_per_sentence: z.number(),
  avg_syllables_per_word: z.number(),
});

const eventTypes = z.object({
  type: text,
  category: z.enum(['business', 'society', 'environment']),
});

export const postedArticleSchema = z
  .looseObject({
    id: int.positive(),
    href: nullableText,
    published_at: nullableText,
    title: nullableText,
    description: nullableText,
    body: nullableText,
    body_html: nullableText,
    language: text,
    translations: z.object({
      en: z.object({ title: nullableText, description: nullableText }).partial(),
    }),
    author: z.object({ id: int.nullable(), name: text }).partial(),
    image: text,
    categories: z.array(
      z.object({
        id: int.nonnegative(),
        name: text,
        score: z.number().optional(),
        taxonomy: text.optional(),
        links: z.object({ self: text }).optional(),
      }),
    ),
    topics: z.array(
      z.object({
        id: text.min(1),
        name: text,
        score: z.number().optional(),
        links: z.object({ self: text }).optional(),
      }),
    ),
    industries: z.array(
      z.object({ id: int.nonnegative(), name: text, links: z.object({ self: text }).optional() }),
    ),
    entities: z.array(entity),
    locations_mentioned: z.array(
      z.object({
        name: text,
        country: text,
        lat: z.number().min(-90).max(90).nullable(),
        lng: z.number().min(-180).max(180).nullable(),
        type: text,
      }),
    ),
    source: source.partial(),
    sentiment: z
      .object({ overall: sentimentScore, title: sentimentScore, body: sentimentScore })
      .partial(),
    summary: z.array(z.object({ sentence: text, sentiment: sentimentScore })),
    readability: readability.partial(),
    keywords: z.array(text),
    links: z.array(z.object({ url: text, type: text })),
    media: z.array(
      z.object({
        url: text,
        type: z.enum(['image', 'video']),
        width: count.optional(),
        height: count.optional(),
      }),
    ),
    shares: z.object({ total: count, facebook: count, twitter: count, reddit: count }).partial(),
    story: z.object({ id: int, uri: text }).partial(),
    is_duplicate: z.boolean(),
    is_free: z.boolean(),
    is_breaking: z.boolean(),
    is_clickbait: z.boolean(),
    events: z.array(eventTypes),
    read_time: count,
    sentences_count: count,
    paragraphs_count: count,
    words_count: count,
    characters_count: count,
  })
  .partial();

export type PostedArticle = z.infer<typeof postedArticleSchema>;

/** The first problem of a posted article, naming the field: `entities.0.name: expected string`. */
export function describeIssue(error: z.ZodError): string {
  const [issue] = error.issues;
  if (issue === undefined) return 'is not a valid article';
  const field = issue.path.map(String).join('.');
  return `${field === '' ? 'the article' : field}: ${issue.message}`;
}
