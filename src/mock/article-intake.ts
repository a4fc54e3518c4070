/**
 * `POST /__mock/articles`: turns what a test sends (often only a title and a
 * few fields) into complete articles and adds them to the fixture store and
 * its indexes, so search, directories, streams and webhooks all see them.
 * Missing fields get neutral values (no entities, no categories, neutral
 * sentiment) so a posted article matches only the filters it asked for.
 */
import { type PostedArticle, describeIssue, postedArticleSchema } from './article-schema.js';
import { MockHttpError } from './error-envelope.js';
import type { Article, Source } from './fixtures/article-types.js';
import { toArticleSource } from './fixtures/world.js';
import { isPlainObject } from './http-io.js';
import type { FixtureStore } from './store/fixture-store.js';

export { MAX_POSTED_ARTICLES } from './http-io.js';

/**
 * Checks and completes posted articles. Ids grow in indexing order (the
 * stream's replay and `--state` rely on it): an article without one gets the
 * next, and an id at or below the newest indexed (or posted before it in the
 * same request) is refused with 400.
 */
export function normalizeArticles(input: unknown, store: FixtureStore, now: Date): Article[] {
  const items = Array.isArray(input) ? input : isPlainObject(input) ? [input] : undefined;
  if (items === undefined) {
    throw new MockHttpError(400, undefined, 'Body must be an array of article objects.');
  }
  let newest = store.newestId();
  // Every article is checked before any is indexed: a bad one leaves the store as it was.
  return items.map((item, i) => {
    if (!isPlainObject(item))
      throw new MockHttpError(400, undefined, `Article ${i} is not an object.`);
    const parsed = postedArticleSchema.safeParse(item);
    if (!parsed.success) {
      throw new MockHttpError(400, undefined, `Article ${i}: ${describeIssue(parsed.error)}`);
    }
    const posted = parsed.data;
    const id = posted.id ?? newest + 1;
    if (id <= newest) {
      throw new MockHttpError(
        400,
        undefined,
        `Article ${i}: id ${id} is not after the newest indexed id, ${newest}: ids grow in indexing order (leave id out to get the next one).`,
      );
    }
    newest = id;
    const published =
      posted.published_at === undefined || posted.published_at === null
        ? now
        : new Date(posted.published_at);
    if (Number.isNaN(published.getTime())) {
      throw new MockHttpError(400, undefined, `Article ${i}: published_at: not a date.`);
    }
    return completeArticle(posted, blankArticle(id, published, store.sources[0]));
  });
}

/**
 * The blank article with the posted fields over it: objects merged key by key,
 * arrays and scalars replaced; nulls the document allows become the blank's
 * value, and list items get the sub-fields the index reads.
 */
function completeArticle(posted: PostedArticle, base: Article): Article {
  const merged = mergeOver(base, posted) as Article;
  merged.id = base.id;
  merged.published_at = base.published_at;
  for (const field of ['href', 'title', 'description', 'body', 'body_html'] as const) {
    if (merged[field] === null) merged[field] = field === 'href' ? base.href : '';
  }
  merged.entities = merged.entities.map((e) => ({
    ...e,
    frequency: e.frequency ?? 1,
    sentiment: {
      score: e.sentiment?.score ?? 0,
      polarity: e.sentiment?.polarity ?? 'neutral',
      mentions: e.sentiment?.mentions ?? { positive: 0, neutral: 1, negative: 0 },
    },
    title: e.title ?? { pos: [] },
    body: e.body ?? { pos: [] },
    links: e.links ?? { self: `/v1/news/entity/${e.id}` },
    metadata: e.metadata ?? {},
  }));
  merged.categories = merged.categories.map((c) => ({
    ...c,
    score: c.score ?? 1,
    taxonomy: c.taxonomy ?? 'iptc_mediatopics',
    links: c.links ?? { self: `/v1/news/category/iptc_mediatopics/${c.id}` },
  }));
  merged.topics = merged.topics.map((t) => ({
    ...t,
    score: t.score ?? 1,
    links: t.links ?? { self: `/v1/news/topic/${t.id}` },
  }));
  merged.industries = merged.industries.map((n) => ({
    ...n,
    links: n.links ?? { self: `/v1/news/industry/${n.id}` },
  }));
  merged.media = merged.media.map((m) => ({ ...m, width: m.width ?? 0, height: m.height ?? 0 }));
  return merged;
}

function mergeOver(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = mergeOver(base[key], value);
  return out;
}

const UNKNOWN_SOURCE: Article['source'] = {
  id: 0,
  domain: 'example.com',
  home_page_url: 'https://example.com',
  type: 'news',
  bias: 'center',
  rankings: { opr: 0 },
  location: { country_name: '', country_code: '' },
  favicon: '',
  name: 'Example',
  is_premium: false,
  is_verified: false,
};

/**
 * A complete, valid article with neutral defaults: what a posted partial
 * article is completed with, and what tests build their articles from.
 */
export function blankArticle(id: number, published: Date, source: Source | undefined): Article {
  const neutral = { score: 0, polarity: 'neutral' as const };
  return {
    id,
    href: `https://${source?.domain ?? 'example.com'}/mock/${id}`,
    published_at: published.toISOString(),
    title: `Mock article ${id}`,
    description: '',
    body: '',
    body_html: '',
    language: source?.language ?? 'en',
    translations: { en: { title: null, description: null } },
    author: { id: null, name: '' },
    categories: [],
    topics: [],
    industries: [],
    entities: [],
    locations_mentioned: [],
    source: source === undefined ? UNKNOWN_SOURCE : toArticleSource(source),
    sentiment: { overall: neutral, title: neutral, body: neutral },
    summary: [],
    readability: {
      flesch_kincaid_grade: 8,
      flesch_reading_ease: 60,
      automated_readability_index: 8,
      difficulty_level: 'intermediate',
      target_audience: 'general',
      reading_age: 14,
      avg_words_per_sentence: 15,
      avg_syllables_per_word: 1.5,
    },
    keywords: [],
    links: [],
    media: [],
    shares: { total: 0, facebook: 0, twitter: 0, reddit: 0 },
    story: { id, uri: `story-${id}` },
    is_duplicate: false,
    is_free: true,
    is_breaking: false,
    is_clickbait: false,
    events: [],
    read_time: 1,
    sentences_count: 0,
    paragraphs_count: 0,
    words_count: 0,
    characters_count: 0,
  };
}
