import { type EngineCore, pagedSearch } from '../search/core.js';
import { sourceOf } from '../search/row.js';
import type { EngineResult, Params, SearchContext } from '../search/types.js';

/** openapi: top headlines come from high-authority sources, "OPR rank >= 5". */
export const HEADLINE_MIN_RANK = 5;

/**
 * /v1/news/top-headlines: the search over high-authority sources, ranked by
 * authority (then newest first) unless sort.by says otherwise.
 */
export function headlines(core: EngineCore, params: Params, ctx: SearchContext): EngineResult {
  const t = core.index.table;
  return pagedSearch(core, params, ctx, {
    filters: [(row) => sourceOf(t, row).rankings.opr >= HEADLINE_MIN_RANK],
    defaultSort: 'source.rank.opr',
  });
}
