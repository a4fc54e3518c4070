import { searchParam } from './registry.js';
import type { ParamDef } from './types.js';

/** The most ids `POST /v1/news/article` takes (openapi: "Comma-separated article IDs (max 100)"). */
export const ARTICLE_IDS_MAX = 100;

/**
 * `id` of `POST /v1/news/article`: numeric ids like the search filter
 * `article.id`, but up to 100 of them. The 5-id limit belongs to the search
 * filter only. Shared by `news article` and the mock's article endpoint.
 */
export const ARTICLE_ID_PARAM: ParamDef = {
  ...(searchParam('article.id') as ParamDef),
  name: 'id',
  help: `article ids, at most ${ARTICLE_IDS_MAX}`,
  list: ARTICLE_IDS_MAX,
};
