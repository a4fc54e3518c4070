/**
 * A small hand-made store for the search engine's tests: every expectation is
 * read off the articles written here, never off the generated fixtures.
 */
import type {
  Article,
  ArticleEntity,
  EntityType,
  FixtureStore,
  Journalist,
  MediaItem,
  Source,
  SuggestEntity,
} from '../../src/mock/fixtures/types.js';
import {
  CATEGORIES,
  COUNTRIES,
  EVENT_CATEGORIES,
  EVENT_TYPES,
  LANGUAGES,
  TOPICS,
} from '../../src/mock/fixtures/vocab.js';
import { blankArticle } from '../../src/mock/article-intake.js';
import { createStore } from '../../src/mock/store/load.js';
import type { SearchContext } from '../../src/mock/search/types.js';

export const NOW = new Date('2025-06-01T12:00:00.000Z');
const HOUR = 3_600_000;
export const hoursAgo = (h: number): string => new Date(NOW.getTime() - h * HOUR).toISOString();
export const daysAgo = (d: number): string => hoursAgo(d * 24);

export function ctx(over: Partial<SearchContext> = {}): SearchContext {
  return {
    now: NOW,
    mode: 'live',
    plan: 'Professional',
    perPageCap: 250,
    path: '/v1/news/everything',
    requestId: 'req_test',
    baseUrl: 'http://mock.test',
    ...over,
  };
}

export function source(over: Partial<Source> = {}): Source {
  return {
    id: 1,
    name: 'Alpha News',
    domain: 'alpha.com',
    home_page_url: 'https://alpha.com',
    type: 'news',
    bias: 'center',
    rank: 5,
    country_code: 'US',
    country_name: 'United States',
    language: 'en',
    is_premium: false,
    is_verified: true,
    favicon: 'https://alpha.com/favicon.ico',
    ...over,
  };
}

export function entity(
  id: number,
  name: string,
  type: EntityType,
  score = 0,
  polarity: 'positive' | 'negative' | 'neutral' = 'neutral',
  metadata: ArticleEntity['metadata'] = {},
): ArticleEntity {
  return {
    id,
    name,
    type,
    frequency: 1,
    sentiment: { score, polarity, mentions: { positive: 0, neutral: 1, negative: 0 } },
    title: { pos: [] },
    body: { pos: [] },
    links: { self: `/v1/news/entity/${id}` },
    metadata,
  };
}

export const image = (width: number, height: number): MediaItem => ({
  url: `https://img.test/${width}x${height}.jpg`,
  type: 'image',
  width,
  height,
});
export const video = (): MediaItem => ({
  url: 'https://vid.test/v.mp4',
  type: 'video',
  width: 1280,
  height: 720,
});

type Over = Partial<Omit<Article, 'source'>> & { source?: Source };

export function article(id: number, over: Over = {}): Article {
  const s = over.source ?? source();
  const neutral = { score: 0, polarity: 'neutral' as const };
  const base: Article = {
    ...blankArticle(id, new Date(hoursAgo(id)), s),
    href: `https://${s.domain}/${id}`,
    title: `Article number ${id}`,
    description: `Description of article ${id}.`,
    body: `Body text of article ${id}. `.repeat(20),
    body_html: `<p>Body text of article ${id}.</p>`,
    language: 'en',
    summary: [{ sentence: `Summary of ${id}.`, sentiment: neutral }],
    readability: {
      flesch_kincaid_grade: 8,
      flesch_reading_ease: 50,
      automated_readability_index: 9,
      difficulty_level: 'intermediate',
      target_audience: 'general',
      reading_age: 14,
      avg_words_per_sentence: 15,
      avg_syllables_per_word: 1.5,
    },
    story: { id: id * 1000, uri: `story-${id}` },
    read_time: 4,
    sentences_count: 10,
    paragraphs_count: 3,
    words_count: 500,
    characters_count: 3000,
  };
  const { source: _s, ...rest } = over;
  return { ...base, ...rest };
}

export interface StoreExtras {
  entities?: SuggestEntity[];
  journalists?: Journalist[];
  sources?: Source[];
}

/** A store of these articles (and the catalogue's lists the engine reads). */
export function makeStore(input: Article[], extras: StoreExtras = {}): FixtureStore {
  const entities = new Map<number, SuggestEntity>();
  for (const e of extras.entities ?? []) entities.set(e.id, e);
  for (const a of input) {
    for (const e of a.entities) {
      if (!entities.has(e.id)) {
        entities.set(e.id, {
          id: e.id,
          name: e.name,
          type: e.type,
          links: e.links,
          metadata: e.metadata,
        });
      }
    }
  }
  const journalists = extras.journalists ?? [];
  return createStore({
    now: NOW,
    seed: 1,
    articles: input,
    catalogue: {
      sources: extras.sources ?? [source()],
      people: [],
      companies: [],
      journalists,
      suggest: {
        entities: [...entities.values()],
        categories: CATEGORIES.map((c) => ({
          ...c,
          taxonomy: 'iptc_mediatopics',
          links: { self: `/v1/news/category/iptc_mediatopics/${c.id}` },
        })),
        topics: TOPICS.map((t) => ({ ...t, links: { self: `/v1/news/topic/${t.id}` } })),
        industries: [],
      },
      eventTypes: EVENT_TYPES,
      eventCategories: EVENT_CATEGORIES,
      languages: LANGUAGES,
      countries: COUNTRIES.map(({ id, code, name }) => ({ id, code, name })),
      journalistAuthorIds: new Map(),
      duplicateOf: new Map(),
    },
  });
}

/** Ids of a search answer's results, in order. */
export function ids(body: Record<string, unknown>): number[] {
  return (body['results'] as { id: number }[]).map((r) => r.id);
}
