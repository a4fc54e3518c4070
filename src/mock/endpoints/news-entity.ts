import { MockHttpError } from '../error-envelope.js';
import { type EngineCore, pagedSearch, pathId } from '../search/core.js';
import type { EngineResult, Params, SearchContext } from '../search/types.js';

/** /v1/news/entity/{entity_id}: the paged feed of articles mentioning the entity; unknown id → 404. */
export function entityFeed(
  core: EngineCore,
  entityId: string,
  params: Params,
  ctx: SearchContext,
): EngineResult {
  const id = pathId(entityId, 'Entity');
  const { store } = core.index;
  if (!store.entityById.has(id))
    throw new MockHttpError(404, undefined, `Entity ${entityId} not found.`);
  return pagedSearch(core, params, ctx, { rows: store.rowsOf('entity', id) });
}
