/**
 * The client one tool call sees: the session's client behind a proxy that
 * holds each request to the points budget before it is sent (the
 * estimate reserved, refused when over what is left), caps paging at the
 * requests reserved, and taps what the call's result needs: the points it
 * spent and the pages it read (how many records, whether more remain).
 */
import { SERVICE_PER_PAGE } from '../../params/registry.js';
import { UsageError } from '../../api/errors.js';
import type { NewsClient } from '../../api/index.js';
import { countBody } from '../../api/paging/page-pin.js';
import type { Page, PageRequest, PaginateOptions } from '../../api/paging/page-types.js';
import { OPEN_AFTER_PAGES } from '../../api/paging/page-window.js';
import type { ApiResponse, RequestOptions } from '../../api/types.js';
import { PROMPT_POINTS, countable } from '../unattended/budget.js';
import { type PageCache, listKey } from './page-cache.js';
import { type PointsBudget, requestCost, responseCost } from './points.js';

export interface PageSeen {
  readonly page: number;
  /** Records handed to the command (a last page cut to the limit holds fewer). */
  readonly records: number;
  /** Records the response held. */
  readonly held: number;
  readonly hasNext: boolean;
}

/** What one call learned from its requests. */
export class CallTap {
  points = 0;
  readonly pages: PageSeen[] = [];
  /** The first paged request, as the command built it (count_total counts it). */
  pagedRequest: PageRequest | undefined;
  /** Matching records, when a count was taken. */
  expected: number | undefined;
  /** count_total: count what the search matches, before its pages. */
  wantCount = false;
  /** Paging stopped at the requests the budget allowed. */
  capped = false;
  /** Told after every page, with the records handed over so far (progress). */
  onPage: ((records: number) => void) | undefined;
  /**
   * A read call of one page keeps it (page-cache.ts), and is served from a
   * page in hand when it continues one; a list answered whole is kept and,
   * when `continues`, read from there.
   */
  cache: PageCache | undefined;
  /** The call asks for a later part of a list the endpoint answers whole (a `page` past 1). */
  continues = false;
  /** The call reads a list whole, in as many requests as it takes (articles by id). */
  wholeList = false;
  /** The list the call's page belongs to (page-cache.ts's key), once it paged. */
  listKey: string | undefined;
  /** Some of the call's records came from pages in hand: nothing was paid for them. */
  fromCache = false;

  get records(): number {
    return this.pages.reduce((n, p) => n + p.records, 0);
  }
}

function heldOf(page: Page<unknown>): number {
  const results = (page.envelope as { results?: unknown }).results;
  return Array.isArray(results) ? results.length : page.records.length;
}

export function guardClient(
  client: NewsClient,
  budget: PointsBudget,
  tap: CallTap,
  signal: AbortSignal,
): NewsClient {
  /** /ping takes no key; anything else sent without one would only earn a 401. */
  function needKey(path: string): void {
    if (!client.hasApiKey && path !== '/ping') {
      throw new UsageError('no API key', {
        hint: 'start the server with NEWS_API_KEY set (or --api-key, a profile), or with --mock',
      });
    }
  }

  async function request(options: RequestOptions): Promise<ApiResponse<unknown>> {
    needKey(options.path);
    // Only a list answered whole is kept: a later `page` of it is the same answer.
    const cache = tap.wholeList ? tap.cache : undefined;
    const key = listKey(options);
    const kept = tap.continues ? cache?.answer(key) : undefined;
    if (kept !== undefined) {
      tap.fromCache = true;
      return { ...kept, usage: { ...kept.usage, 'x-points-used': '0' } };
    }
    const response = await paidRequest(options);
    cache?.putAnswer(key, response);
    return response;
  }

  async function paidRequest(options: RequestOptions): Promise<ApiResponse<unknown>> {
    const cost = requestCost(options);
    const held = budget.reserve(cost, `${options.method} ${options.path}`);
    let spent = 0;
    try {
      const response = await client.request<unknown>({ ...options, raw: false });
      spent = responseCost(response, cost);
      return response;
    } finally {
      budget.settle(held, spent);
      tap.points += spent;
    }
  }

  /** The count of what `spec` matches (count_total, or an export of every page under a budget). */
  async function countOf(spec: PageRequest): Promise<number | undefined> {
    const response = await paidRequest({
      method: 'POST',
      path: '/v1/news/count',
      body: countBody((spec.body ?? {}) as Record<string, unknown>),
      signal,
    });
    const count = (response.body as { count?: unknown } | null)?.count;
    return typeof count === 'number' ? count : undefined;
  }

  /** Requests the paging will send at most, from its limit, the count, or the budget left. */
  async function plannedRequests(
    spec: PageRequest,
    options: PaginateOptions,
    perRequest: number,
    prompt: number,
  ): Promise<number | undefined> {
    const perPage = Math.min(
      options.perPage ?? SERVICE_PER_PAGE,
      budget.perPageCap ?? Number.POSITIVE_INFINITY,
    );
    const pagesFor = (records: number) => {
      const pages = Math.max(1, Math.ceil(records / perPage));
      // Past three pages the client pages several at once, in a window it counts and probes.
      return pages > OPEN_AFTER_PAGES ? pages + 3 : pages;
    };
    let pages =
      options.maxPages === 1
        ? 1
        : options.limit === undefined
          ? undefined
          : pagesFor(options.limit);
    const count =
      countable(spec) &&
      tap.expected === undefined &&
      (tap.wantCount || (pages === undefined && budget.max !== undefined));
    if (count) {
      // Refused whole, count and pages, before the count is sent.
      if (pages !== undefined) budget.check(1 + pages * perRequest + prompt, 'this call');
      tap.expected = await countOf(spec);
      if (pages === undefined && tap.expected !== undefined) pages = pagesFor(tap.expected);
    }
    if (pages !== undefined) return pages;
    const left = budget.left;
    return left === undefined ? undefined : Math.floor(left / Math.max(1, perRequest));
  }

  /** One page of a read call: from a page in hand when it continues one, else fetched and kept. */
  async function* onePage<R>(
    spec: PageRequest,
    options: PaginateOptions,
    cache: PageCache,
    perPage: number,
  ): AsyncGenerator<Page<R>, void, undefined> {
    const page = options.startPage ?? 1;
    const start = (page - 1) * perPage;
    const key = listKey(spec);
    tap.listKey = key;
    const hit = cache.window(key, start, perPage);
    if (hit !== undefined) {
      needKey(spec.path);
      tap.pagedRequest ??= spec;
      tap.fromCache = true;
      const records = hit.records as R[];
      const envelope = {
        ...hit.entry.envelope,
        page,
        limit: perPage,
        results: records,
        has_next_pages: hit.hasNext,
      };
      const response = {
        ...hit.entry.response,
        body: envelope,
        usage: { ...hit.entry.response.usage, 'x-points-used': '0' },
      };
      tap.pages.push({ page, records: records.length, held: records.length, hasNext: hit.hasNext });
      tap.onPage?.(tap.records);
      yield { page, records, envelope, response };
      return;
    }
    for await (const fetched of guardedPages<R>(spec, options)) {
      // A plan's cap on per_page moves every position: such a page is not kept.
      const limit = fetched.envelope['limit'];
      if (typeof limit === 'number' && limit < perPage) {
        yield fetched;
        continue;
      }
      cache.put(key, {
        start: (fetched.page - 1) * perPage,
        records: fetched.records as Record<string, unknown>[],
        envelope: fetched.envelope,
        response: fetched.response,
        hasNext: fetched.envelope['has_next_pages'] === true,
      });
      yield fetched;
    }
  }

  function paginate<R>(
    spec: PageRequest,
    options: PaginateOptions = {},
  ): AsyncGenerator<Page<R>, void, undefined> {
    const { cache } = tap;
    if (cache !== undefined && options.maxPages === 1 && options.perPage !== undefined) {
      return onePage<R>(spec, options, cache, options.perPage);
    }
    if (cache !== undefined && tap.wholeList) return wholeList<R>(spec, options, cache);
    return guardedPages<R>(spec, options);
  }

  /** A list read whole in several requests: kept, and read again from there by a later `page`. */
  async function* wholeList<R>(
    spec: PageRequest,
    options: PaginateOptions,
    cache: PageCache,
  ): AsyncGenerator<Page<R>, void, undefined> {
    const key = `whole ${listKey(spec)}`;
    const kept = tap.continues ? (cache.list(key) as Page<R>[] | undefined) : undefined;
    if (kept !== undefined) {
      needKey(spec.path);
      tap.fromCache = true;
      for (const page of kept) {
        const usage = { ...page.response.usage, 'x-points-used': '0' };
        yield { ...page, response: { ...page.response, usage } };
      }
      return;
    }
    const pages: Page<R>[] = [];
    for await (const page of guardedPages<R>(spec, options)) {
      pages.push(page);
      yield page;
    }
    cache.putList(key, pages);
  }

  async function* guardedPages<R>(
    spec: PageRequest,
    options: PaginateOptions = {},
  ): AsyncGenerator<Page<R>, void, undefined> {
    needKey(spec.path);
    tap.pagedRequest ??= spec;
    const body = (spec.body ?? {}) as Record<string, unknown>;
    const prompt = typeof body['prompt'] === 'string' ? PROMPT_POINTS : 0;
    const perRequest = requestCost(spec) - prompt;
    const requests = await plannedRequests(spec, options, perRequest, prompt);
    const held = budget.reserve(
      requests === undefined ? perRequest + prompt : requests * perRequest + prompt,
      'this call',
    );
    const limited =
      budget.max === undefined || requests === undefined
        ? {}
        : { maxRequests: Math.min(requests, options.maxRequests ?? requests) };
    let spent = 0;
    try {
      const pages = client.paginate<R>(spec, {
        ...options,
        ...limited,
        ...(tap.expected === undefined || options.expected !== undefined
          ? {}
          : { expected: tap.expected }),
        onResponse: (response, kind) => {
          spent += responseCost(response, perRequest);
          options.onResponse?.(response, kind);
        },
        onEvent: (event) => {
          if (event.kind === 'capped') tap.capped = true;
          options.onEvent?.(event);
        },
      });
      for await (const page of pages) {
        budget.notePage(options.perPage ?? SERVICE_PER_PAGE, page.envelope['limit']);
        tap.pages.push({
          page: page.page,
          records: page.records.length,
          held: heldOf(page as Page<unknown>),
          hasNext: page.envelope['has_next_pages'] === true,
        });
        tap.onPage?.(tap.records);
        yield page;
      }
    } finally {
      budget.settle(held, spent);
      tap.points += spent;
    }
  }

  return new Proxy(client, {
    get(target, property) {
      if (property === 'request') return request;
      if (property === 'paginate') return paginate;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
