import type { Article, Polarity } from '../fixtures/types.js';

export type { Polarity };

/** The store's article record. */
export type ArticleRecord = Article;

/** Account plans; the engine only needs them for the prompt rule (ER0706). */
export type Plan = 'Free' | 'Starter' | 'Basic' | 'Professional' | 'Corporate';

export type Mode = 'live' | 'test';

/** What the server knows about one request; every answer is deterministic given this and the store. */
export interface SearchContext {
  readonly now: Date;
  readonly mode: Mode;
  readonly plan: Plan;
  /** The plan's per_page ceiling; a larger per_page is capped silently. */
  readonly perPageCap: number;
  readonly path: string;
  readonly requestId: string;
  readonly baseUrl: string;
  /** `X-Mock-Scenario: prompt-unavailable`: the prompt translation service is down (ER0801). */
  readonly promptUnavailable?: boolean;
}

/** Query string and JSON body merged. */
export type Params = Readonly<Record<string, unknown>>;

export interface EngineResult {
  readonly body: Record<string, unknown>;
  /** Points this request costs (0 in test mode). */
  readonly points: number;
}

/** One named entity of an article, flattened for matching. */
export interface DocEntity {
  readonly id: number;
  readonly name: string;
  readonly nameLower: string;
  /** Words of the name, for name filters (`person.name=Musk` is a phrase inside `Elon Musk`). */
  readonly nameTokens: readonly string[];
  /** Words of each other name of the entity (metadata `aliases`), matched like the name. */
  readonly aliasTokens: readonly (readonly string[])[];
  /** The article schema's entity type (`person`, `natural-disaster`, …). */
  readonly type: string;
  readonly frequency: number;
  readonly score: number;
  readonly polarity: Polarity;
}

export interface DocImage {
  readonly width: number;
  readonly height: number;
}

export interface DocPlace {
  readonly name: string;
  readonly nameLower: string;
  readonly country: string;
  readonly lat: number;
  readonly lng: number;
  readonly entityId: number | null;
}

/**
 * An article as the engine indexes it: every attribute a filter, the query
 * language, a sort key or a facet reads, computed once when the store is
 * indexed. `source` is the record the answer returns.
 */
export interface Doc {
  /** Position in the index's article list; -1 when the article is not indexed. */
  readonly ix: number;
  /** The stored article, returned as is (or truncated in test mode). */
  readonly source: ArticleRecord;
  readonly id: number;
  readonly title: string;
  readonly titleLower: string;
  readonly titleTokens: readonly string[];
  readonly description: string;
  readonly body: string;
  readonly publishedAt: number;
  readonly createdAt: number;
  readonly language: string;
  readonly sourceId: number | null;
  readonly sourceDomain: string;
  readonly sourceCountry: string;
  readonly sourceBias: string;
  readonly sourceRank: number;
  readonly isPremiumSource: boolean;
  readonly isVerifiedSource: boolean;
  readonly categoryIds: readonly string[];
  readonly topicIds: readonly string[];
  readonly industryIds: readonly string[];
  readonly entities: readonly DocEntity[];
  readonly eventTypes: readonly string[];
  readonly eventCategories: readonly string[];
  readonly sentimentOverall: number;
  readonly sentimentTitle: number;
  readonly sentimentBody: number;
  readonly polarityOverall: Polarity;
  readonly polarityTitle: Polarity;
  readonly polarityBody: Polarity;
  readonly isClickbait: boolean;
  readonly images: readonly DocImage[];
  readonly videoCount: number;
  readonly fkGrade: number;
  readonly ease: number;
  readonly ari: number;
  readonly difficulty: string;
  readonly audience: string;
  readonly readingAge: number;
  readonly readTime: number;
  readonly sentencesCount: number;
  readonly paragraphsCount: number;
  readonly charactersCount: number;
  readonly wordsCount: number;
  readonly places: readonly DocPlace[];
  readonly isDuplicate: boolean;
  readonly isPaywall: boolean;
  readonly isBreaking: boolean;
  readonly isFree: boolean;
  readonly authorId: number | null;
  readonly authorName: string;
  readonly sharesFacebook: number;
  readonly sharesTwitter: number;
  readonly sharesReddit: number;
  readonly storyId: number | null;
}

/**
 * A predicate over indexed articles. `ix` is the article's position in the
 * index (-1 for an article that is not indexed): column filters read typed
 * arrays at `ix` instead of the object, which keeps a scan of 100,000 articles
 * inside the CPU caches.
 */
export type DocFilter = (doc: Doc, ix: number) => boolean;
