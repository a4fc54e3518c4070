import { MockHttpError } from '../error-envelope.js';
import { type EngineCore, pagedSearch, pathId } from '../search/core.js';
import type { EngineResult, Params, SearchContext } from '../search/types.js';

/**
 * /v1/news/story/{articleId}: the other articles of the article's story (same
 * story id), newest first, with every search filter, sort and paging. The article
 * itself is left out: the caller already has it. Unknown article → 404.
 */
export function story(
  core: EngineCore,
  articleId: string,
  params: Params,
  ctx: SearchContext,
): EngineResult {
  const id = pathId(articleId, 'Article');
  const { store } = core.index;
  const row = store.rowOf(id);
  if (row === undefined) throw new MockHttpError(404, undefined, `Article ${articleId} not found.`);
  const members = store
    .rowsOf('story', store.table.story.data[row] as number)
    .filter((r) => r !== row);
  return pagedSearch(core, params, ctx, { rows: members });
}
