/**
 * Paging through a list endpoint as an async iterator. Page N+1 is the same
 * request with `page` incremented (the envelope's `next_page` URL is not
 * followed: it may point at another host or drop parameters). While the
 * consumer handles page N, page N+1 is already on its way; stopping early
 * aborts that prefetch so no request outlives the loop.
 */
import { ResponseError } from './errors.js';
import type { ApiResponse, RequestOptions, RequestSpec } from './types.js';

/** The request of page one, minus paging; `body`, when given, must be a JSON object. */
export type PageRequest = RequestSpec;

export interface PaginateOptions {
  /** Default 1. */
  startPage?: number | undefined;
  /** Sent as `per_page`; when absent the server's default applies. */
  perPage?: number | undefined;
  /** Stop after this many pages. */
  maxPages?: number | undefined;
  /** Stop after this many records across pages; the last page is truncated. */
  limit?: number | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Where `page`/`per_page` go. Default: the body for POST/PATCH or when the
   * request has a body, else the query string.
   */
  placement?: 'body' | 'query' | undefined;
  /** Where the records sit in the envelope; default `results`. */
  recordsKey?: string | undefined;
}

export type Envelope = Record<string, unknown>;

export interface Page<R> {
  page: number;
  records: R[];
  envelope: Envelope;
  response: ApiResponse<Envelope>;
}

/** The part of the client pagination needs (keeps this module testable alone). */
export interface Requester {
  request<T>(options: RequestOptions & { raw?: false | undefined }): Promise<ApiResponse<T>>;
}

export async function* paginate<R = Record<string, unknown>>(
  client: Requester,
  request: PageRequest,
  options: PaginateOptions = {},
): AsyncGenerator<Page<R>, void, undefined> {
  const { perPage, maxPages, limit, signal } = options;
  const recordsKey = options.recordsKey ?? 'results';
  if ((limit !== undefined && limit <= 0) || (maxPages !== undefined && maxPages <= 0)) return;

  // Our own controller, so abandoning the loop can cancel the prefetch without
  // touching the caller's signal.
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  signal?.addEventListener('abort', onAbort, { once: true });

  const fetchPage = (page: number): Promise<ApiResponse<unknown>> =>
    client.request<unknown>({
      ...withPage(request, page, perPage, options.placement),
      signal: controller.signal,
    });

  let page = options.startPage ?? 1;
  let pending: Promise<ApiResponse<unknown>> | undefined;
  let pagesDone = 0;
  let recordsDone = 0;
  try {
    pending = fetchPage(page);
    while (pending !== undefined) {
      const response = await pending;
      pending = undefined;
      const envelope = asEnvelope(response.body, request.path);
      const all = recordsOf<R>(envelope, recordsKey, request.path);
      const records = limit === undefined ? all : all.slice(0, limit - recordsDone);
      recordsDone += records.length;
      pagesDone += 1;

      const more =
        envelope['has_next_pages'] === true &&
        // An empty page claiming more would loop forever.
        all.length > 0 &&
        (maxPages === undefined || pagesDone < maxPages) &&
        (limit === undefined || recordsDone < limit);
      if (more) {
        pending = fetchPage(page + 1);
        // Handled when awaited; this only stops an abandoned prefetch's
        // rejection from being reported as unhandled.
        pending.catch(() => {});
      }
      yield { page, records, envelope, response: { ...response, body: envelope } };
      page += 1;
    }
  } finally {
    if (pending !== undefined) controller.abort(new Error('pagination stopped'));
    signal?.removeEventListener('abort', onAbort);
  }
}

function withPage(
  request: PageRequest,
  page: number,
  perPage: number | undefined,
  placement: 'body' | 'query' | undefined,
): RequestSpec {
  const paging: Record<string, number> = { page };
  if (perPage !== undefined) paging['per_page'] = perPage;
  const inBody =
    (placement ?? (request.method !== 'GET' || request.body !== undefined ? 'body' : 'query')) ===
    'body';
  if (inBody) {
    if (
      request.body !== undefined &&
      (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body))
    ) {
      throw new ResponseError(`cannot page ${request.path}: the request body is not a JSON object`);
    }
    const body = request.body as Readonly<Record<string, unknown>> | undefined;
    const out: RequestSpec = {
      method: request.method,
      path: request.path,
      body: { ...body, ...paging },
    };
    if (request.query !== undefined) out.query = request.query;
    return out;
  }
  return { method: request.method, path: request.path, query: { ...request.query, ...paging } };
}

function asEnvelope(body: unknown, path: string): Envelope {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Envelope;
  throw new ResponseError(
    `expected a list envelope (an object) from ${path}, got ${describe(body)}`,
  );
}

function recordsOf<R>(envelope: Envelope, key: string, path: string): R[] {
  const records = envelope[key];
  if (records === undefined || records === null) return [];
  if (!Array.isArray(records)) {
    throw new ResponseError(
      `expected "${key}" to be an array in the response of ${path}, got ${describe(records)}`,
    );
  }
  return records as R[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
