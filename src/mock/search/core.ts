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
import { type Candidates, select, selectRows } from './select.js';
import { keyField, type SortBy, topRows, topRowsByColumn } from './sort.js';
import type { DocFilter, EngineResult, Params, SearchContext } from './types.js';

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
  /** Candidate rows sorted by published_at descending (default: the whole index). */
  readonly rows?: Candidates;
  /** The endpoint's own condition (authority, story, entity…). */
  readonly filters?: readonly DocFilter[];
  /** Order when sort.by is absent (default published_at). */
  readonly defaultSort?: Exclude<SortBy, 'relevance'>;
}

/** A search-shaped endpoint: filter, sort, page, and answer in the search envelope. */
export function pagedSearch(
  core: EngineCore,
  params: Params,
  ctx: SearchContext,
  how: PagedSearch = {},
): EngineResult {
  const prepared = prepareRequest(core, params, ctx);
  const { index } = core;
  const choice = sortChoice(prepared, index, how.defaultSort);
  const needed = neededOrder(prepared, ctx);
  const rows = how.rows ?? index.table.order;
  let body: Record<string, unknown>;
  if (wantsFacets(prepared)) {
    // Facets count every match: collect them all.
    const matches = sortMatches(prepared, select(prepared, rows, how.filters), choice, needed);
    body = searchBody(prepared, matches, ctx, index);
  } else if (choice.natural) {
    // The index's own order: the scan stops once the page is full, plus one
    // match to say a next page exists (the envelope has no total).
    body = searchBody(prepared, select(prepared, rows, how.filters, needed + 1), ctx, index);
  } else if (choice.name !== undefined) {
    // A named order: the matching rows ranked from the key's column (a
    // numeric field's own, or the composite key's, computed once per row).
    const matches = selectRows(prepared, rows, how.filters);
    const field = keyField(choice.key);
    const keys =
      field === undefined
        ? index.columns.sortKeys(choice.name, choice.key)
        : (index.columns.number(field) as Float64Array);
    const top = topRowsByColumn(index.table, matches, keys, choice.order, needed);
    body = searchBody(prepared, top, ctx, index, matches.length);
  } else {
    // Relevance (it depends on the request): every match is ranked, only the leading ones are kept.
    const matches = select(prepared, rows, how.filters);
    const top = topRows(index.table, matches, choice.key, choice.order, needed);
    body = searchBody(prepared, top, ctx, index, matches.length);
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
