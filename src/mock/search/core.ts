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
import { select, selectPositions } from './select.js';
import { keyField, type SortKey, topDocs, topPositions } from './sort.js';
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
  const docs = how.docs ?? core.index.docs;
  let body: Record<string, unknown>;
  if (wantsFacets(prepared)) {
    // Facets count every match: collect them all.
    const matches = sortMatches(select(prepared, docs, how.filters), choice, needed);
    body = searchBody(prepared, matches, ctx, core.index);
  } else if (choice.natural) {
    // The index's own order: the scan stops once the page is full, plus one
    // match to say a next page exists (the envelope has no total).
    body = searchBody(prepared, select(prepared, docs, how.filters, needed + 1), ctx, core.index);
  } else if (docs === prepared.indexDocs && keyField(choice.key) !== undefined) {
    // A field's order over the whole index: rank positions from the columns.
    const positions = selectPositions(prepared, how.filters);
    const columns = core.index.columns;
    const keys = columns.number(keyField(choice.key) as string) as Float64Array;
    const leading = topPositions(positions, { keys, ...columns.order() }, choice.order, needed);
    const top = leading.map((p) => docs[p] as Doc);
    body = searchBody(prepared, top, ctx, core.index, positions.length);
  } else {
    // Another order: every match is ranked, only the leading ones are kept.
    const matches = select(prepared, docs, how.filters);
    const top = topDocs(matches, choice.key, choice.order, needed);
    body = searchBody(prepared, top, ctx, core.index, matches.length);
  }
  return {
    body,
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
