import type { FACET_FIELDS } from '../../params/search-values.js';
import type { Article } from '../fixtures/article-types.js';
import { RawArticle } from '../store/article-json.js';
import type { ArticleIndex } from './article-index.js';
import { type FacetField, fieldFacet, type RangeFacet, rangeFacet } from './facets.js';
import { highlight } from './highlight.js';
import { envelope, type Paging, pageBounds } from './paging.js';
import { listOf } from './parse-request.js';
import type { Prepared } from './prepare.js';
import { SORT_KEYS, type SortBy, type SortKey, sortRows } from './sort.js';
import { testModeArticle } from './test-mode.js';
import { tokenize } from './text.js';
import type { Params, SearchContext } from './types.js';

/** per_page is capped at the plan's ceiling silently (the spec names caps, never an error). */
export function paging(prepared: Prepared, ctx: SearchContext): Paging {
  const page = Number(prepared.values.get('page') ?? 1);
  const asked = Number(prepared.values.get('per_page') ?? 100);
  return { page, perPage: Math.max(1, Math.min(asked, ctx.perPageCap)) };
}

/**
 * Relevance: title hits weigh three times description hits; without words to
 * look for, the newest article is the most relevant.
 */
function relevance(words: readonly string[], index: ArticleIndex): SortKey {
  if (words.length === 0) return SORT_KEYS.published_at;
  const dict = index.table.dict.words;
  const set = new Set<number>();
  for (const w of words) {
    const id = dict.find(w);
    if (id !== undefined) set.add(id);
  }
  return (t, r) => {
    let score = 0;
    for (let i = t.titleWords.from(r); i < t.titleWords.to(r); i++)
      if (set.has(t.titleWord.data[i] as number)) score += 3;
    for (let i = t.descriptionWords.from(r); i < t.descriptionWords.to(r); i++)
      if (set.has(t.descriptionWord.data[i] as number)) score += 1;
    return score;
  };
}

export interface SortChoice {
  readonly key: SortKey;
  readonly order: 'asc' | 'desc';
  /** The key is published_at descending: the index order already is the answer. */
  readonly natural: boolean;
  /** A named key (sort.by), whose values the engine keeps in a column; not relevance. */
  readonly name?: Exclude<SortBy, 'relevance'>;
}

export function sortChoice(
  prepared: Prepared,
  index: ArticleIndex,
  /** The endpoint's order when sort.by is absent. */
  fallback?: Exclude<SortBy, 'relevance'>,
): SortChoice {
  const by = prepared.values.get('sort.by') as SortBy | undefined;
  const order = (prepared.values.get('sort.order') as 'asc' | 'desc' | undefined) ?? 'desc';
  if (by === undefined && fallback !== undefined)
    return { key: SORT_KEYS[fallback], order, natural: false, name: fallback };
  const name = by ?? 'published_at';
  if (name === 'relevance') return { key: relevance(prepared.words, index), order, natural: false };
  return {
    key: SORT_KEYS[name],
    order,
    natural: name === 'published_at' && order === 'desc',
    name,
  };
}

/** Orders the matches; only the first `limit` places need to be right (the pages up to the one shown). */
export function sortMatches(
  prepared: Prepared,
  rows: number[],
  choice: SortChoice,
  limit = rows.length,
): number[] {
  return choice.natural ? rows : sortRows(prepared.table, rows, choice.key, choice.order, limit);
}

/** How many leading matches the requested page needs in order. */
export function neededOrder(prepared: Prepared, ctx: SearchContext): number {
  const p = paging(prepared, ctx);
  return p.page * p.perPage;
}

/**
 * An article of an answer: its stored JSON, copied into the answer as it is,
 * or, for a test key, the preview made from it.
 */
export function outputArticle(
  index: ArticleIndex,
  row: number,
  ctx: SearchContext,
): RawArticle | Article {
  const json = index.store.json;
  return ctx.mode === 'test'
    ? testModeArticle(json.article(row))
    : new RawArticle(index.table.id.data[row] as number, json.bytes(row));
}

/** The article object of an answer's article (parsed from its bytes when needed). */
export const articleValue = (a: RawArticle | Article): Article =>
  a instanceof RawArticle ? a.value() : a;

/** Whether the answer carries facets, which count every match (so no scan may stop early). */
export function wantsFacets(prepared: Prepared): boolean {
  const v = prepared.values;
  if (v.get('facet.range') === '1') return true;
  return listOf(v.get('facet.field')).length > 0 && v.get('facet') !== '0';
}

function facets(prepared: Prepared, matches: readonly number[], index: ArticleIndex, now: number) {
  const v = prepared.values;
  const out: Record<string, unknown> = {};
  const fields = listOf(v.get('facet.field')) as (typeof FACET_FIELDS)[number][];
  if (fields.length > 0 && v.get('facet') !== '0') {
    const limit = Number(v.get('facet.limit') ?? 10);
    const mincount = Number(v.get('facet.mincount') ?? 1);
    const lookup = index.facetLookup;
    for (const f of fields)
      out[f] = fieldFacet(f as FacetField, index.table, matches, limit, mincount, lookup);
  }
  if (v.get('facet.range') === '1') {
    const field = String(v.get('facet.range.field') ?? 'published_at');
    const start = v.get('facet.range.start');
    const end = v.get('facet.range.end');
    const range: RangeFacet | undefined = rangeFacet(
      field,
      start === undefined ? undefined : String(start),
      end === undefined ? undefined : String(end),
      String(v.get('facet.range.gap') ?? '+1DAY'),
      index.table,
      matches,
      now,
    );
    if (range) out['ranges'] = { [field]: range };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function highlighting(prepared: Prepared, shown: readonly (RawArticle | Article)[]) {
  const v = prepared.values;
  if (v.get('hl') !== '1') return undefined;
  const words = new Set(prepared.words);
  for (const term of listOf(v.get('search'))) for (const w of tokenize(term)) words.add(w);
  return highlight(shown.map(articleValue), {
    words,
    fields: listOf(v.get('hl.fl') ?? 'title,description'),
    fragsize: Number(v.get('hl.fragsize') ?? 150),
    snippets: Number(v.get('hl.snippets') ?? 3),
    pre: String(v.get('hl.tag.pre') ?? '<em>'),
    post: String(v.get('hl.tag.post') ?? '</em>'),
  });
}

export function meta(prepared: Prepared): Record<string, unknown> | undefined {
  const m: Record<string, unknown> = {};
  if (prepared.prompt) m['prompt'] = prepared.prompt;
  if (prepared.warnings.length > 0) m['warnings'] = prepared.warnings;
  return Object.keys(m).length > 0 ? m : undefined;
}

/** Points of a search-like request: 1, plus 2 for a new prompt wording; nothing with a test key. */
export function searchPoints(prepared: Prepared, ctx: SearchContext, base = 1): number {
  return ctx.mode === 'test' ? 0 : base + (prepared.promptNew ? 2 : 0);
}

/** The paged search answer (spec/openapi.json, POST /v1/news/everything 200). */
export function searchBody(
  prepared: Prepared,
  matches: readonly number[],
  ctx: SearchContext,
  index: ArticleIndex,
  /** How many matched, when `matches` holds only the leading ones (no facets then). */
  total = matches.length,
): Record<string, unknown> {
  const p = paging(prepared, ctx);
  const { from, to } = pageBounds(p, total);
  const shown = matches.slice(from, to).map((row) => outputArticle(index, row, ctx));
  const body: Record<string, unknown> = {
    ...envelope(prepared.params, ctx, p, total),
    results: shown,
  };
  const f = facets(prepared, matches, index, ctx.now.getTime());
  if (f) body['facets'] = f;
  const h = highlighting(prepared, shown);
  if (h) body['highlighting'] = h;
  const m = meta(prepared);
  if (m) body['meta'] = m;
  if (debugRequested(prepared.params)) body['user_input'] = userInput(prepared.params);
  return body;
}

/** `debug=1` echoes the request's parameters (openapi: user_input), never the key. */
function debugRequested(params: Params): boolean {
  const d = params['debug'];
  return d === 1 || d === '1' || d === true || d === 'true';
}

function userInput(params: Params): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([name]) => name !== 'api_key'));
}
