/**
 * The window a paged run is pinned to, so that pages fetched at different
 * moments, several at once, tile one list that does not move under them.
 *
 * The service keeps indexing. An article published during a run lands at the
 * top of a newest-first list, or anywhere in another order; pages fetched one
 * after another only see the list shift down (a record comes twice, and is
 * dropped as seen), but pages fetched out of order can skip the record that
 * shifted past a boundary. So a run pins `published_at.end` to the newest
 * matching article's publication time, taken from the service's own answer
 * (the first page when the order is newest first, else a one-article probe
 * sorted that way), never from the local clock. Everything published later
 * belongs to the next run.
 *
 * An article indexed late with an older publication time can still enter
 * the pinned window. On the search endpoint, `count` over the pinned window
 * is taken when the window opens and again at the end: when it moved, the
 * pages are read once more one after another and what the parallel pass
 * missed is added (page-rescan.ts).
 *
 * A list in indexing order (`sort.by` id, newest first: what `--state`
 * pages) is pinned by its indexing position as well: the first id of page
 * one, the newest when that page was answered. The service has no filter on
 * ids, so records above it are dropped here, in both passes: they were
 * indexed after the run began and belong to the next run, which finds them
 * above its watermark (the largest id written, never above this position).
 * Every matching article at or below it was indexed before page one was
 * answered, so before the window's end was read (page one itself, or the
 * probe after it), and so is inside the window: none of them is lost. The
 * published_at pin is still needed: without it the list would keep growing
 * at the top while pages are fetched out of order, and records shifted past
 * a page boundary would be skipped.
 *
 * Lists the service does not grow during a run (articles by id, the
 * directories) need no pin.
 */
import { searchParam } from '../../params/registry.js';
import { TITLE_WINDOW_DAYS } from '../../params/validate.js';
import type { RequestSpec } from '../types.js';

/**
 * - `fixed`: does not grow during a run; pages may go out at once from the second.
 * - `pinned`: grows; pages go out at once only within a pinned window.
 * - `counted`: pinned, and `count` can check the window did not move.
 * - `sequential`: not known to be pinnable: one page after another.
 */
export type ListKind = 'fixed' | 'pinned' | 'counted' | 'sequential';

type Body = Record<string, unknown>;

interface ListRule {
  readonly path: RegExp;
  readonly kind: ListKind;
  /** The order when the request names no `sort.by`. */
  readonly defaultSort?: string;
  /** How many records the list holds, when the request itself says. */
  readonly total?: (body: Body) => number | undefined;
}

/** The paged lists of the specification; any other path pages one page at a time. */
const LISTS: readonly ListRule[] = [
  { path: /^\/v1\/news\/everything$/, kind: 'counted', defaultSort: 'published_at' },
  // Their default order is not specified: a probe tells the newest.
  { path: /^\/v1\/news\/(story|entity)\/[^/]+$/, kind: 'pinned' },
  // Ranked by authority unless sort.by says otherwise.
  { path: /^\/v1\/news\/top-headlines$/, kind: 'pinned', defaultSort: 'authority' },
  { path: /^\/v1\/news\/raw$/, kind: 'pinned', defaultSort: 'id' },
  { path: /^\/v1\/news\/article$/, kind: 'fixed', total: (body) => idCount(body['id']) },
  { path: /^\/v1\/(people|companies|journalists)$/, kind: 'fixed' },
];

function ruleOf(request: RequestSpec): ListRule | undefined {
  return LISTS.find((r) => r.path.test(request.path));
}

export function listKind(request: RequestSpec): ListKind {
  return ruleOf(request)?.kind ?? 'sequential';
}

/** The pin a run sends with every page it fetches at once. */
export interface WindowPin {
  /** `published_at.end`: the newest matching article's publication time when the window opened. */
  readonly end: string;
}

function bodyOf(request: RequestSpec): Body {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {};
}

/** Whether the list is in indexing order, newest first (`sort.by` id, descending): `--state`'s order. */
export function newestIdFirst(request: RequestSpec): boolean {
  const kind = listKind(request);
  if (kind !== 'pinned' && kind !== 'counted') return false;
  const body = bodyOf(request);
  const by = body['sort.by'] ?? ruleOf(request)?.defaultSort;
  return by === 'id' && body['sort.order'] !== 'asc';
}

/**
 * The run's indexing position from page one of a list in id order, newest
 * first: its first id, provided the page is in that order (a server that
 * sorts otherwise is not trusted with it: nothing is dropped then).
 */
export function newestIdFromFirstPage(
  records: readonly Readonly<Record<string, unknown>>[],
): number | undefined {
  let previous = Infinity;
  for (const record of records) {
    const id = record['id'];
    if (typeof id !== 'number' || !Number.isFinite(id) || id > previous) return undefined;
    previous = id;
  }
  const first = records[0]?.['id'];
  return typeof first === 'number' ? first : undefined;
}

/** Whether a record was indexed after the run's position (a higher id): it belongs to the next run. */
export function indexedAfter(record: Readonly<Record<string, unknown>>, newest: number): boolean {
  const id = record['id'];
  return typeof id === 'number' && id > newest;
}

/** Whether the first record of a page is the newest: the order is published_at, newest first. */
export function newestFirst(request: RequestSpec): boolean {
  const body = bodyOf(request);
  const by = body['sort.by'] ?? ruleOf(request)?.defaultSort;
  return by === 'published_at' && body['sort.order'] !== 'asc';
}

/**
 * The window's end from the first page of a newest-first list: its first
 * record's publication time, provided the page is in that order (a server
 * that sorts otherwise is not trusted with it: a probe asks instead).
 */
export function endFromFirstPage(
  records: readonly Readonly<Record<string, unknown>>[],
): string | undefined {
  let previous = Infinity;
  for (const record of records) {
    const at = publishedAt(record);
    if (at === undefined) return undefined;
    const ms = Date.parse(at);
    if (ms > previous) return undefined;
    previous = ms;
  }
  return publishedAt(records[0]);
}

/** A record's publication time as the service wrote it, when it has one that parses. */
export function publishedAt(
  record: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const value = record?.['published_at'];
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined;
}

/** Paging, sorting, highlighting and facets: they shape an answer, not what matches. */
const NOT_A_FILTER = /^(page|per_page|sort\.|hl|hl\.|facet|export)/;

/** The body `count` takes: the filters, without paging, sorting, highlighting and facets. */
export function countBody(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (NOT_A_FILTER.test(name)) continue;
    out[name] = value;
  }
  return out;
}

/** One article, the newest that matches: where the window's end is read when page one cannot tell. */
export function newestProbe(request: RequestSpec): RequestSpec {
  return probe(request, 'published_at');
}

/**
 * One article, the last indexed that matches: a run's indexing position read
 * before any of its pages (`--state` over several windows, incremental-run.ts).
 */
export function newestIdProbe(request: RequestSpec): RequestSpec {
  return probe(request, 'id');
}

function probe(request: RequestSpec, by: 'published_at' | 'id'): RequestSpec {
  const body: Body = {};
  for (const [name, value] of Object.entries(bodyOf(request))) {
    if (!/^(hl|hl\.|facet|export)/.test(name)) body[name] = value;
  }
  return {
    ...request,
    body: { ...body, 'sort.by': by, 'sort.order': 'desc', page: 1, per_page: 1 },
  };
}

/** `count` over the pinned window (the search endpoint only). */
export function pinnedCount(request: RequestSpec, pin: WindowPin): RequestSpec {
  return {
    method: 'POST',
    path: '/v1/news/count',
    body: countBody(bodyOf(pinned(request, pin))),
  };
}

const DAY_MS = 86_400_000;

/**
 * The request with the window's end. A title-based search without dates
 * searches the 31 days before "now" on the service's clock; pinned, it
 * searches the 31 days before the window's end, said explicitly.
 */
export function pinned(request: RequestSpec, pin: WindowPin): RequestSpec {
  const body = bodyOf(request);
  const out: Body = { ...body, 'published_at.end': pin.end };
  const titled = Object.keys(body).some((name) => searchParam(name)?.titleWindow === true);
  if (titled && body['published_at.start'] === undefined && body['published_at'] === undefined) {
    const start = Date.parse(pin.end) - TITLE_WINDOW_DAYS * DAY_MS;
    out['published_at.start'] = new Date(start).toISOString();
  }
  return { ...request, body: out };
}

/** How many records a list holds, when the request itself says (articles by id). */
export function knownTotal(request: RequestSpec): number | undefined {
  return ruleOf(request)?.total?.(bodyOf(request));
}

/** The distinct ids of a comma-separated `id` list. */
function idCount(ids: unknown): number | undefined {
  if (typeof ids !== 'string' || ids.trim() === '') return undefined;
  return new Set(ids.split(',').map((id) => id.trim())).size;
}
