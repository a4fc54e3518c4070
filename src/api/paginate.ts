/**
 * Paging through a list endpoint as an async iterator. Page N+1 is the same
 * request with `page` incremented (the envelope's `next_page` URL is not
 * followed: it may point at another host or drop parameters). While the
 * consumer handles page N, page N+1 is already on its way; stopping early
 * aborts that prefetch so no request outlives the loop.
 *
 * The server is not trusted to page well: a record that is not a JSON object
 * is skipped with a warning naming its page and position (every format
 * then sees the same records); a record already yielded (same `id`) is never
 * yielded again; and a page that brings nothing new, or whose `page` number
 * does not advance, ends the loop with a warning instead of asking forever.
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
  /** Told about skipped records and a paging loop cut short (the CLI prints `warning: …`). */
  onWarning?: ((message: string) => void) | undefined;
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
  const seen = new PageMemory();
  const warn = options.onWarning ?? (() => {});
  try {
    pending = fetchPage(page);
    while (pending !== undefined) {
      const response = await pending;
      pending = undefined;
      const envelope = asEnvelope(response.body, request.path);
      const received = recordsOf(envelope, recordsKey, request.path);
      const objects = onlyObjects(received, page, warn);
      const { fresh, stop } = seen.take(objects, received.length, envelope, page);
      if (fresh.length < objects.length && stop === undefined) {
        warn(
          `page ${page} repeated ${objects.length - fresh.length} of its ${objects.length} records already written; skipped them`,
        );
      }
      if (stop !== undefined) warn(stop);
      const records = (limit === undefined ? fresh : fresh.slice(0, limit - recordsDone)) as R[];
      recordsDone += records.length;
      pagesDone += 1;

      const more =
        envelope['has_next_pages'] === true &&
        stop === undefined &&
        // An empty page claiming more would loop forever.
        received.length > 0 &&
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

type ApiObject = Record<string, unknown>;

/** The records that are JSON objects; the others are named in one warning per page. */
function onlyObjects(
  records: readonly unknown[],
  page: number,
  warn: (message: string) => void,
): ApiObject[] {
  let bad: number[] | undefined;
  let kinds: Set<string> | undefined;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (typeof r === 'object' && r !== null && !Array.isArray(r)) continue;
    bad ??= [];
    kinds ??= new Set();
    bad.push(i + 1);
    kinds.add(describe(r));
  }
  if (bad === undefined || kinds === undefined) return records as ApiObject[];
  const positions =
    bad.length <= 5 ? bad.join(', ') : `${bad.slice(0, 5).join(', ')} and ${bad.length - 5} more`;
  warn(
    `page ${page}: record${bad.length === 1 ? '' : 's'} ${positions} of ${records.length} ${bad.length === 1 ? 'is' : 'are'} not an object (${[...kinds].join(', ')}); skipped`,
  );
  return records.filter(
    (r): r is ApiObject => typeof r === 'object' && r !== null && !Array.isArray(r),
  );
}

/**
 * What the pages so far brought: the ids yielded, and a fingerprint of each
 * page whose records have no id. Ids are a few bytes each: a million records
 * cost tens of MB at most, a price worth not writing a record twice.
 */
class PageMemory {
  readonly #ids = new Set<string>();
  readonly #pages = new Set<string>();
  #lastEnvelopePage: number | undefined;

  /**
   * The records not seen before, and why paging must stop after this page
   * (undefined: it may go on).
   */
  take(
    records: readonly ApiObject[],
    received: number,
    envelope: Envelope,
    page: number,
  ): { fresh: ApiObject[]; stop: string | undefined } {
    const fresh: ApiObject[] = [];
    const anonymous: ApiObject[] = [];
    const ids = new Set<string>();
    for (const r of records) {
      const id = idOf(r);
      if (id === undefined) {
        anonymous.push(r);
        fresh.push(r);
      } else if (!this.#ids.has(id) && !ids.has(id)) {
        ids.add(id);
        fresh.push(r);
      }
    }
    for (const id of ids) this.#ids.add(id);

    let stop: string | undefined;
    const echoed = envelope['page'];
    if (typeof echoed === 'number' && Number.isFinite(echoed)) {
      if (this.#lastEnvelopePage !== undefined && echoed <= this.#lastEnvelopePage) {
        stop = `page ${page}: the server answered page ${echoed} again; stopped paging (every record was written once)`;
      }
      this.#lastEnvelopePage = echoed;
    }
    if (anonymous.length > 0) {
      const print = fingerprint(anonymous);
      if (this.#pages.has(print) && fresh.length === anonymous.length) {
        stop ??= `page ${page} repeats an earlier page; stopped paging (every record was written once)`;
        return { fresh: [], stop };
      }
      this.#pages.add(print);
    }
    if (received > 0 && fresh.length === 0 && stop === undefined) {
      stop = `page ${page} brought no record that was not already written; stopped paging`;
    }
    return { fresh, stop };
  }
}

function idOf(record: ApiObject): string | undefined {
  const id = record['id'];
  if (typeof id === 'number' && Number.isFinite(id)) return `n${id}`;
  if (typeof id === 'string' && id !== '') return `s${id}`;
  return undefined;
}

/** Order-sensitive digest of records without ids (FNV-1a over their JSON: cheap and dependency-free). */
function fingerprint(records: readonly ApiObject[]): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (const r of records) {
    const text = JSON.stringify(r) ?? '';
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    h1 = Math.imul(h1 ^ 0x1e, 0x01000193);
  }
  return `${records.length}:${(h1 >>> 0).toString(36)}:${(h2 >>> 0).toString(36)}`;
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

function recordsOf(envelope: Envelope, key: string, path: string): unknown[] {
  const records = envelope[key];
  if (records === undefined || records === null) return [];
  if (!Array.isArray(records)) {
    throw new ResponseError(
      `expected "${key}" to be an array in the response of ${path}, got ${describe(records)}`,
    );
  }
  return records as unknown[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
