/**
 * GET /v1/people, /v1/companies, /v1/journalists (list) and /{id} (profile).
 * Billing: 1 point when the answer has at least one result (a profile always
 * has one; a missing id is a 404 and free).
 */
import {
  ENTITY_DIRECTORY_PARAMS,
  JOURNALIST_DIRECTORY_PARAMS,
} from '../params/directory-params.js';
import { PLAN_LIMITS } from './accounts.js';
import { entityCoverage, journalistCoverage } from './coverage.js';
import { MockHttpError } from './error-envelope.js';
import type { Company, Journalist, Person } from './fixtures/article-types.js';
import type { JsonReply, RequestContext } from './route-types.js';
import { parseParams } from './search/parse-request.js';
import { testModeArticle as previewArticle } from './search/test-mode.js';
import type { Params } from './search/types.js';
import { RawArticle } from './store/article-json.js';
import type { FixtureStore } from './store/fixture-store.js';

export type DirectoryKind = 'people' | 'companies' | 'journalists';

const MAX_PER_PAGE = 250;
const DEFAULT_PER_PAGE = 100;
const RECENT_ARTICLES = 5;
const PROFILE_OUTLETS = 500;

export function listDirectory(
  store: FixtureStore,
  kind: DirectoryKind,
  ctx: RequestContext,
): JsonReply {
  const plan = ctx.account!.plan;
  // The CLI's table (journalists have no knowledge-base id: there it is ignored
  // like any unknown parameter). An invalid value is not applied.
  const table = kind === 'journalists' ? JOURNALIST_DIRECTORY_PARAMS : ENTITY_DIRECTORY_PARAMS;
  const { values } = parseParams(ctx.params as Params, table);
  // per_page is read apart: above 250 it is capped, like the plan ceiling, not dropped.
  const perPage = Math.min(
    positiveInt(ctx.params['per_page']) ?? DEFAULT_PER_PAGE,
    MAX_PER_PAGE,
    PLAN_LIMITS[plan].perPage,
  );
  const page = Number(values.get('page') ?? 1);
  const name = text(values.get('name'))?.toLowerCase();
  const wikidata = text(values.get('wikidata_id'))?.replace(/^q/i, '');

  const records: readonly (Person | Company | Journalist)[] =
    kind === 'people' ? store.people : kind === 'companies' ? store.companies : store.journalists;
  const matches = records.filter((r) => {
    if (name !== undefined && !r.name.toLowerCase().includes(name)) return false;
    if (wikidata !== undefined) {
      const id = 'profile' in r ? r.profile.wikidata_id.replace(/^q/i, '') : undefined;
      if (id !== wikidata) return false;
    }
    return true;
  });
  const start = (page - 1) * perPage;
  const results = matches.slice(start, start + perPage);
  return {
    status: 200,
    body: {
      status: 'ok',
      limit: perPage,
      page,
      has_next_pages: start + perPage < matches.length,
      results,
    },
    cost: results.length > 0 ? 1 : 0,
  };
}

export function directoryProfile(
  store: FixtureStore,
  kind: DirectoryKind,
  ctx: RequestContext,
): JsonReply {
  const id = Number(ctx.pathParams['id']);
  const now = ctx.clock.now();
  const withCoverage = String(ctx.params['coverage'] ?? '').toLowerCase() !== 'false';
  const preview = ctx.account?.mode === 'test';
  const recent = (rows: readonly number[]) =>
    rows
      .slice(0, RECENT_ARTICLES)
      .map((row) =>
        preview
          ? previewArticle(store.json.article(row))
          : new RawArticle(store.table.id.data[row] as number, store.json.bytes(row)),
      );

  if (kind === 'journalists') {
    const journalist = Number.isSafeInteger(id) ? store.journalistById.get(id) : undefined;
    if (journalist === undefined) throw notFound(kind, ctx.pathParams['id']);
    const articles = journalistArticles(store, journalist.id);
    const body: Record<string, unknown> = {
      ...journalist,
      outlets: journalist.outlets.slice(0, PROFILE_OUTLETS),
      outlet_count: journalist.outlet_count,
    };
    if (withCoverage) body['coverage'] = journalistCoverage(store, articles, now);
    body['recent_articles'] = recent(articles);
    return { status: 200, body, cost: 1 };
  }

  const record = Number.isSafeInteger(id)
    ? kind === 'people'
      ? store.personById.get(id)
      : store.companyById.get(id)
    : undefined;
  if (record === undefined) throw notFound(kind, ctx.pathParams['id']);
  const articles = store.rowsOf('entity', record.id);
  const body: Record<string, unknown> = { ...record };
  if (withCoverage) body['coverage'] = entityCoverage(store, record.id, articles, now);
  body['recent_articles'] = recent(articles);
  return { status: 200, body, cost: 1 };
}

/**
 * Rows of every author record merged under the journalist's name, newest
 * first: the spec says profile counts merge them, unlike links.articles (one record).
 */
function journalistArticles(store: FixtureStore, journalistId: number): number[] {
  const authorIds = store.journalistAuthorIds.get(journalistId) ?? [journalistId];
  const rows = authorIds.flatMap((a) => store.rowsOf('author', a));
  return authorIds.length === 1
    ? rows
    : rows.sort((a, b) => store.positionOf(a) - store.positionOf(b));
}

function notFound(kind: DirectoryKind, id: string | undefined): MockHttpError {
  const what = kind === 'people' ? 'Person' : kind === 'companies' ? 'Company' : 'Journalist';
  return new MockHttpError(404, 'ER0151', `${what} ${id ?? ''} not found.`, 'short');
}

function positiveInt(value: unknown): number | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const s = String(value).trim();
  return s === '' ? undefined : s;
}
