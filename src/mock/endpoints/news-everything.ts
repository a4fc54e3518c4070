import { type EngineCore, pagedSearch, prepareRequest } from '../search/core.js';
import { meta, searchPoints } from '../search/respond.js';
import { countMatches } from '../search/select.js';
import { TEST_MODE_COUNT_CAP } from '../search/test-mode.js';
import type { EngineResult, Params, SearchContext } from '../search/types.js';

/** POST|GET /v1/news/everything. */
export function everything(core: EngineCore, params: Params, ctx: SearchContext): EngineResult {
  return pagedSearch(core, params, ctx);
}

/** /v1/news/count: the number of matches; a test key sees at most 100 (spec, Authentication 5). */
export function count(core: EngineCore, params: Params, ctx: SearchContext): EngineResult {
  const prepared = prepareRequest(core, params, ctx);
  const n = countMatches(prepared, core.index.table.order);
  const body: Record<string, unknown> = {
    status: 'ok',
    count: ctx.mode === 'test' ? Math.min(n, TEST_MODE_COUNT_CAP) : n,
    request_id: ctx.requestId,
  };
  const m = meta(prepared);
  if (m) body['meta'] = m;
  return { body, points: searchPoints(prepared, ctx) };
}
