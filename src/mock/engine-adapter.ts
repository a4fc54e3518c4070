/**
 * The seam between the server and the search engine (src/mock/search/, API
 * in its README). The server codes against `NewsEngine` only, so tests can
 * hand it a stand-in and a change on either side is a change here.
 */
import { type SearchEngine, createSearchEngine } from './search/index.js';
import type { EngineResult, Params, SearchContext } from './search/types.js';
import type { FixtureStore } from './store/fixture-store.js';

export type { EngineResult, Params, SearchContext };

/** What the server needs of an engine: the search engine's surface. */
export type NewsEngine = SearchEngine;

export type EngineFactory = (store: FixtureStore) => NewsEngine;

export const defaultEngineFactory: EngineFactory = createSearchEngine;
