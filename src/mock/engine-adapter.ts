/**
 * The seam between the HTTP server and the parts other modules own: the
 * fixture loader (src/mock/fixtures/load.ts) and the search engine
 * (src/mock/search/, API in its README). The server codes against
 * `NewsEngine` only, so tests can hand it a stand-in and a change on either
 * side is a change here.
 */
import { loadFixtures } from './fixtures/load.js';
import type { Article, FixtureStore } from './fixtures/types.js';
import { type SearchEngine, createSearchEngine } from './search/index.js';
import type { EngineResult, Params, SearchContext } from './search/types.js';

export type { EngineResult, Params, SearchContext };

export interface NewsEngine {
  everything(params: Params, ctx: SearchContext): EngineResult;
  headlines(params: Params, ctx: SearchContext): EngineResult;
  story(articleId: string, params: Params, ctx: SearchContext): EngineResult;
  article(params: Params, ctx: SearchContext): EngineResult;
  count(params: Params, ctx: SearchContext): EngineResult;
  trends(params: Params, ctx: SearchContext): EngineResult;
  local(params: Params, ctx: SearchContext): EngineResult;
  entityFeed(entityId: string, params: Params, ctx: SearchContext): EngineResult;
  eventTypes(): EngineResult;
  /** The search filters as a predicate, for streams and webhooks; throws like a search. */
  matcher(params: Params, ctx: SearchContext): (article: Article) => boolean;
  /** Told about articles added to the store after the engine was built. */
  addArticles?(articles: readonly Article[]): void;
}

export type EngineFactory = (store: FixtureStore) => NewsEngine;

// Compile-time proof that the real engine fits the seam.
const realEngine: (store: FixtureStore) => SearchEngine & NewsEngine = createSearchEngine;
export const defaultEngineFactory: EngineFactory = realEngine;

export { loadFixtures as loadStore };
