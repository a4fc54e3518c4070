import { article } from '../endpoints/news-article.js';
import { entityFeed } from '../endpoints/news-entity.js';
import { eventTypes } from '../endpoints/news-event-types.js';
import { count, everything } from '../endpoints/news-everything.js';
import { headlines } from '../endpoints/news-headlines.js';
import { local } from '../endpoints/news-local.js';
import { story } from '../endpoints/news-story.js';
import { trends } from '../endpoints/news-trends.js';
import type { FixtureStore } from '../store/fixture-store.js';
import { ArticleIndex } from './article-index.js';
import { type EngineCore, prepareRequest } from './core.js';
import type { EngineResult, Params, SearchContext } from './types.js';

export type { EngineResult, Mode, Params, Plan, SearchContext } from './types.js';

export interface SearchEngine {
  everything(params: Params, ctx: SearchContext): EngineResult;
  headlines(params: Params, ctx: SearchContext): EngineResult;
  story(articleId: string, params: Params, ctx: SearchContext): EngineResult;
  article(params: Params, ctx: SearchContext): EngineResult;
  count(params: Params, ctx: SearchContext): EngineResult;
  trends(params: Params, ctx: SearchContext): EngineResult;
  local(params: Params, ctx: SearchContext): EngineResult;
  entityFeed(entityId: string, params: Params, ctx: SearchContext): EngineResult;
  eventTypes(): EngineResult;
  /**
   * The search filters of `params` as a predicate over indexed articles, by
   * id (streams, webhooks: an article is indexed before it is announced).
   * Throws like a search.
   */
  matcher(params: Params, ctx: SearchContext): (id: number) => boolean;
}

/**
 * The mock's news endpoints over a fixture store. Deterministic given the store
 * and `ctx.now`; the only state is the prompt cache (a wording parsed once is
 * free afterwards, spec "Prompt rules" 2).
 */
export function createSearchEngine(store: FixtureStore): SearchEngine {
  const core: EngineCore = { index: new ArticleIndex(store), prompts: new Map() };
  return {
    everything: (params, ctx) => everything(core, params, ctx),
    headlines: (params, ctx) => headlines(core, params, ctx),
    story: (id, params, ctx) => story(core, id, params, ctx),
    article: (params, ctx) => article(core, params, ctx),
    count: (params, ctx) => count(core, params, ctx),
    trends: (params, ctx) => trends(core, params, ctx),
    local: (params, ctx) => local(core, params, ctx),
    entityFeed: (id, params, ctx) => entityFeed(core, id, params, ctx),
    eventTypes: () => eventTypes(core),
    matcher(params, ctx) {
      const prepared = prepareRequest(core, params, ctx);
      const { from, to } = prepared;
      const filters = prepared.predicates();
      const times = prepared.table.published.data;
      return (id) => {
        const row = store.rowOf(id);
        if (row === undefined) return false;
        const t = times[row] as number;
        return t >= from && t <= to && filters.every((f) => f(row));
      };
    },
  };
}
