import { ARTICLE_ID_PARAM, ARTICLE_IDS_MAX } from '../../params/article-params.js';
import { searchParam } from '../../params/registry.js';
import type { ParamDef } from '../../params/types.js';
import { MockHttpError } from '../error-envelope.js';
import { type EngineCore, prepareRequest } from '../search/core.js';
import { listOf, parseParams } from '../search/parse-request.js';
import { searchBody, searchPoints, sortChoice, sortMatches } from '../search/respond.js';
import { select } from '../search/select.js';
import type { EngineResult, Params, SearchContext } from '../search/types.js';

const ARTICLE_ID = searchParam('article.id') as ParamDef;
/**
 * The ids may come as `id` (spec/openapi.json: at most 100), `ids` (the same),
 * or `article.id` (the specification's search filter: at most 5); extra ids
 * are dropped silently like any list's.
 */
const ID_DEFS: readonly ParamDef[] = [
  ARTICLE_ID_PARAM,
  { ...ARTICLE_ID_PARAM, name: 'ids' },
  ARTICLE_ID,
];

/**
 * /v1/news/article: the requested articles, in the order asked (unless sort.by
 * says otherwise); unknown ids are left out. The search filters still apply.
 * No id at all → 400 (openapi: "Article ID is required").
 */
export function article(core: EngineCore, params: Params, ctx: SearchContext): EngineResult {
  const parsed = parseParams(params, ID_DEFS);
  const raw = ID_DEFS.map((d) => parsed.values.get(d.name)).find((v) => v !== undefined);
  const ids = listOf(raw).map(Number);
  if (ids.length === 0)
    throw new MockHttpError(
      400,
      undefined,
      `Article ID is required: id=<id>[,<id>…] (at most ${ARTICLE_IDS_MAX}).`,
    );
  const prepared = prepareRequest(core, params, ctx);
  const { store } = core.index;
  const wanted = [
    ...new Set(ids.map((id) => store.rowOf(id)).filter((r): r is number => r !== undefined)),
  ].sort((a, b) => store.positionOf(a) - store.positionOf(b));
  const asked = new Map(ids.map((id, i) => [id, i]));
  const idOf = (row: number): number => store.table.id.data[row] as number;
  const matches = select(prepared, wanted);
  const ordered = prepared.values.has('sort.by')
    ? sortMatches(prepared, matches, sortChoice(prepared, core.index))
    : matches.sort((a, b) => (asked.get(idOf(a)) ?? 0) - (asked.get(idOf(b)) ?? 0));
  return {
    body: searchBody(prepared, ordered, ctx, core.index),
    points: searchPoints(prepared, ctx),
  };
}
