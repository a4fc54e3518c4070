import { MockHttpError } from '../error-envelope.js';
import { type EngineCore, pagedSearch, pathId } from '../search/core.js';
import type { Doc, EngineResult, Params, SearchContext } from '../search/types.js';

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
  core.index.refresh();
  const id = pathId(articleId, 'Article');
  const article = core.index.byId.get(id);
  if (article === undefined)
    throw new MockHttpError(404, undefined, `Article ${articleId} not found.`);
  const storyId = article.storyId;
  const members = (core.index.store.articlesByStoryId.get(storyId ?? -1) ?? [])
    .map((a) => core.index.byId.get(a.id))
    .filter((d): d is Doc => d !== undefined && d.id !== id);
  return pagedSearch(core, params, ctx, { docs: members });
}
