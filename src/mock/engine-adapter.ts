/**
 * The seam between the HTTP server and the parts other modules own: the
 * fixture loader (src/mock/fixtures/load.ts) and the search engine
 * (src/mock/search/, API in its README). The server codes against
 * `NewsEngine` only, so tests can hand it a stand-in and a change on either
 * side is a change here.
 */
import { loadFixtures } from './fixtures/load.js';
import type { FixtureStore } from './fixtures/types.js';
import { type SearchEngine, createSearchEngine } from './search/index.js';
import type { EngineResult, Params, SearchContext } from './search/types.js';

export type { EngineResult, Params, SearchContext };

/** What the server needs of an engine: the search engine's surface; re-indexing is optional for stand-ins. */
export type NewsEngine = Omit<SearchEngine, 'addArticles'> &
  Partial<Pick<SearchEngine, 'addArticles'>>;

export type EngineFactory = (store: FixtureStore) => NewsEngine;

export const defaultEngineFactory: EngineFactory = createSearchEngine;

export { loadFixtures as loadStore };
