import { RAW_PARAMS } from '../../params/raw-params.js';
import { MockHttpError } from '../error-envelope.js';
import type { Article } from '../fixtures/article-types.js';
import { sourceOf } from '../search/row.js';
import type { FixtureStore } from '../store/fixture-store.js';
import { DAY_MS, dayRange, rangeEnd, rangeStart } from '../search/dates.js';
import { listOf, parseParams } from '../search/parse-request.js';
import { envelope, pageBounds } from '../search/paging.js';
import { TEST_MODE_MARKER, TEST_MODE_PREVIEW } from '../search/test-mode.js';
import type { EngineResult, Params, SearchContext } from '../search/types.js';

/** How long a row stays in the staging feed (openapi: "expire within ~1 day"). */
export const RAW_RETENTION_MS = DAY_MS;

const PROMPT_PLANS = new Set(['Basic', 'Professional', 'Corporate']);

/**
 * `POST /v1/news/raw` (openapi only): articles as the discovery stage sees them,
 * before parsing and enrichment: id, title, href, created_at, description,
 * body, body_html, author, keywords and the source; no language, categories,
 * entities or sentiment. The feed holds the articles of the last day before
 * the mock clock (rows expire within about a day). Filters: source ids, a
 * published_at day or range, sort by id (default), published_at or created_at
 * (the fixtures have one time, so both mean the publication time). Invalid
 * values are not applied, as for search. `prompt` needs the Basic plan (403
 * ER0706); its filters are not applied here (docs/MOCK.md). 1 point.
 */
export function rawFeed(store: FixtureStore, params: Params, ctx: SearchContext): EngineResult {
  const { values } = parseParams(params, RAW_PARAMS);
  if (params['prompt'] !== undefined && !PROMPT_PLANS.has(ctx.plan)) {
    throw new MockHttpError(
      403,
      'ER0706',
      `The prompt parameter needs the Basic plan or above (this key: ${ctx.plan}).`,
    );
  }
  const now = ctx.now.getTime();
  let from = now - RAW_RETENTION_MS;
  let to = now;
  const day = values.get('published_at');
  if (day !== undefined) {
    const range = dayRange(String(day));
    from = Math.max(from, range.from);
    to = Math.min(to, range.to);
  }
  const start = values.get('published_at.start');
  if (start !== undefined) from = Math.max(from, rangeStart(String(start)));
  const end = values.get('published_at.end');
  if (end !== undefined) to = Math.min(to, rangeEnd(String(end)));
  const only = new Set(listOf(values.get('source.id')).map(Number));
  const ignored = new Set(listOf(values.get('ignore.source.id')).map(Number));

  const t = store.table;
  const rows: { row: number; id: number; ms: number }[] = [];
  for (const row of t.order) {
    const ms = t.published.data[row] as number;
    if (ms > to) continue;
    if (ms < from) break; // newest first: nothing older can be in range
    const source = sourceOf(t, row).id;
    if (only.size > 0 && !only.has(source)) continue;
    if (ignored.has(source)) continue;
    rows.push({ row, id: t.id.data[row] as number, ms });
  }
  const by = String(values.get('sort.by') ?? 'id');
  const sign = values.get('sort.order') === 'asc' ? 1 : -1;
  rows.sort((a, b) =>
    by === 'id' ? sign * (a.id - b.id) : sign * (a.ms - b.ms) || sign * (a.id - b.id),
  );
  const perPage = Math.min(Number(values.get('per_page') ?? 100), ctx.perPageCap);
  const paging = { page: Number(values.get('page') ?? 1), perPage };
  const { from: first, to: last } = pageBounds(paging, rows.length);
  const { export: _export, ...head } = envelope(params, ctx, paging, rows.length);
  return {
    body: {
      ...head,
      results: rows.slice(first, last).map((r) => rawArticle(store.json.article(r.row), ctx)),
    },
    points: ctx.mode === 'test' ? 0 : 1,
  };
}

/** The raw row of an article: what an RSS item and the sitemap repository give. */
function rawArticle(a: Article, ctx: SearchContext): Record<string, unknown> {
  const cut = (text: string): string =>
    ctx.mode === 'test' && text.length > TEST_MODE_PREVIEW
      ? `${text.slice(0, TEST_MODE_PREVIEW)}${TEST_MODE_MARKER}`
      : text;
  const { name: _name, is_premium: _p, is_verified: _v, ...source } = a.source;
  return {
    id: a.id,
    title: a.title,
    href: a.href,
    created_at: a.published_at,
    description: cut(a.description),
    body: cut(a.body),
    body_html: ctx.mode === 'test' ? `<p>${cut(a.body)}</p>` : a.body_html,
    author: a.author.name === '' ? null : a.author.name,
    keywords: a.keywords,
    source,
  };
}
