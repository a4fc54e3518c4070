/**
 * `POST /__mock/articles`: turns what a test sends (often only a title and a
 * few fields) into complete articles and adds them to the fixture store and
 * its indexes, so search, directories, streams and webhooks all see them.
 * Missing fields get neutral values (no entities, no categories, neutral
 * sentiment) so a posted article matches only the filters it asked for.
 */
import { type PostedArticle, describeIssue, postedArticleSchema } from './article-schema.js';
import { MockHttpError } from './error-envelope.js';
import type { Article, FixtureStore, Source } from './fixtures/types.js';
import { toArticleSource } from './fixtures/world.js';
import { isPlainObject } from './http-io.js';
import { markIndexed } from './indexed-at.js';

/** Most articles one `POST /__mock/articles` may carry (413 beyond; checked by the route). */
export const MAX_POSTED_ARTICLES = 10_000;

export function normalizeArticles(input: unknown, store: FixtureStore, now: Date): Article[] {
  const items = Array.isArray(input) ? input : isPlainObject(input) ? [input] : undefined;
  if (items === undefined) {
    throw new MockHttpError(400, undefined, 'Body must be an array of article objects.');
  }
  let nextId = maxArticleId(store) + 1;
  const seen = new Set<number>();
  // Every article is checked before any is indexed: a bad one leaves the store as it was.
  return items.map((item, i) => {
    if (!isPlainObject(item))
      throw new MockHttpError(400, undefined, `Article ${i} is not an object.`);
    const parsed = postedArticleSchema.safeParse(item);
    if (!parsed.success) {
      throw new MockHttpError(400, undefined, `Article ${i}: ${describeIssue(parsed.error)}`);
    }
    const posted = parsed.data;
    const id = posted.id ?? nextId++;
    if (store.articleById.has(id) || seen.has(id)) {
      throw new MockHttpError(409, undefined, `Article ${i}: id ${id} is already indexed.`);
    }
    seen.add(id);
    nextId = Math.max(nextId, id + 1);
    const published =
      posted.published_at === undefined || posted.published_at === null
        ? now
        : new Date(posted.published_at);
    if (Number.isNaN(published.getTime())) {
      throw new MockHttpError(400, undefined, `Article ${i}: published_at: not a date.`);
    }
    const article = completeArticle(posted, blankArticle(id, published, store.sources[0]));
    markIndexed(article, now);
    return article;
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

/** Adds articles to the store's list (kept newest first) and every index the store declares. */
export function indexArticles(store: FixtureStore, articles: readonly Article[]): void {
  if (articles.length === 0) return;
  mergeNewestFirst(store, articles);
  const position = new Map<number, number>();
  for (const [i, a] of store.articles.entries()) position.set(a.id, i);
  const byPosition = (a: Article, b: Article): number => position.get(a.id)! - position.get(b.id)!;

  const touched = new Set<Article[]>();
  const add = <K>(map: Map<K, Article[]>, key: K, article: Article): void => {
    let list = map.get(key);
    if (list === undefined) {
      list = [];
      map.set(key, list);
    }
    list.push(article);
    touched.add(list);
  };
  for (const article of articles) {
    store.articleById.set(article.id, article);
    for (const entity of article.entities) {
      add(store.articlesByEntityId, entity.id, article);
      if (!store.entityById.has(entity.id)) {
        const known = {
          id: entity.id,
          name: entity.name,
          type: entity.type,
          links: entity.links,
          metadata: entity.metadata,
        };
        store.entityById.set(entity.id, known);
        store.suggest.entities.push(known);
      }
    }
    add(store.articlesByStoryId, article.story.id, article);
    if (article.author.id !== null) add(store.articlesByAuthorId, article.author.id, article);
    add(store.articlesBySourceId, article.source.id, article);
  }
  // Index lists keep the order of `articles`; only the lists that grew need sorting again.
  for (const list of touched) list.sort(byPosition);
}

/** A merge, not a sort: the store already holds 100 000 articles in order, with their times. */
function mergeNewestFirst(store: FixtureStore, added: readonly Article[]): void {
  const fresh = added
    .map((article) => ({ article, ms: Date.parse(article.published_at) }))
    .sort((a, b) => b.ms - a.ms || b.article.id - a.article.id);
  const old = store.articles;
  const oldMs = store.publishedMs;
  const articles: Article[] = new Array(old.length + fresh.length);
  const times = new Float64Array(old.length + fresh.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < articles.length; k++) {
    const next = fresh[j];
    const takeFresh =
      next !== undefined &&
      (i >= old.length ||
        next.ms > oldMs[i]! ||
        (next.ms === oldMs[i]! && next.article.id > old[i]!.id));
    if (takeFresh) {
      articles[k] = next.article;
      times[k] = next.ms;
      j++;
    } else {
      articles[k] = old[i]!;
      times[k] = oldMs[i]!;
      i++;
    }
  }
  // In place, so anyone holding the array (the search engine) sees the new articles too.
  old.length = 0;
  for (const article of articles) old.push(article);
  store.publishedMs = times;
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

/** The newest id in indexing order: a new article gets the next one. */
export function maxArticleId(store: FixtureStore): number {
  let max = 0;
  for (const id of store.articleById.keys()) if (id > max) max = id;
  return max;
}

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
