import { MockHttpError } from '../error-envelope.js';
import type { ArticleIndex } from './article-index.js';
import { type PrepareOptions, type Prepared, type PromptCache, prepare } from './prepare.js';
import {
  neededOrder,
  searchBody,
  searchPoints,
  sortChoice,
  sortMatches,
  wantsFacets,
} from './respond.js';
import { select } from './select.js';
import type { SortKey } from './sort.js';
import type { Doc, DocFilter, EngineResult, Params, SearchContext } from './types.js';

/** What every endpoint shares: the index of the store and the prompt cache. */
export interface EngineCore {
  readonly index: ArticleIndex;
  readonly prompts: PromptCache;
}

export function prepareRequest(
  core: EngineCore,
  params: Params,
  ctx: SearchContext,
  options?: PrepareOptions,
): Prepared {
  core.index.refresh();
  return prepare(params, ctx, core.index, core.prompts, options);
}

export interface PagedSearch {
  /** Candidates sorted by published_at descending (default: every article). */
  readonly docs?: readonly Doc[];
  /** The endpoint's own condition (authority, story, entity…). */
  readonly filters?: readonly DocFilter[];
  /** Order when sort.by is absent (default published_at). */
  readonly defaultSort?: SortKey;
}

/** A search-shaped endpoint: filter, sort, page, and answer in the search envelope. */
export function pagedSearch(
  core: EngineCore,
  params: Params,
  ctx: SearchContext,
  how: PagedSearch = {},
): EngineResult {
  const prepared = prepareRequest(core, params, ctx);
  const choice = sortChoice(prepared, how.defaultSort);
  const needed = neededOrder(prepared, ctx);
  // In the index's own order and without facets, the scan can stop once the
  // page is full and one more match says a next page exists.
  const stopAfter = choice.natural && !wantsFacets(prepared) ? needed + 1 : undefined;
  const matches = sortMatches(
    select(prepared, how.docs ?? core.index.docs, how.filters, stopAfter),
    choice,
    needed,
  );
  return {
    body: searchBody(prepared, matches, ctx, core.index),
    points: searchPoints(prepared, ctx),
  };
}

/** A path id that must be a positive integer; anything else cannot exist. */
export function pathId(raw: string, what: string): number {
  const id = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(id)) {
    throw new MockHttpError(404, undefined, `${what} ${raw} not found.`);
  }
  return id;
}
