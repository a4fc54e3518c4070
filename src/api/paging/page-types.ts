/** The public shapes of paging (paginate.ts). Type-only. */
import type { ConcurrencyChange } from './concurrency.js';
import type { Envelope } from './page-memory.js';
import type { WindowPin } from './page-pin.js';
import type { ApiResponse, RequestOptions, RequestSpec } from '../types.js';

export type { Envelope } from './page-memory.js';
export type { WindowPin } from './page-pin.js';

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
  /** Told about records that are not objects and a paging loop cut short (the CLI prints `warning: …`). */
  onWarning?: ((message: string) => void) | undefined;
  /**
   * Told why paging stopped while the server still said more pages follow
   * (a page number that does not advance, pages that bring nothing new, an
   * empty page): the list was not read to its end. Default: a warning
   * (`REASON; stopped paging`). Throwing from it fails the run instead
   * (`--state`: a watermark must not pass over what was not read).
   */
  onCut?: ((reason: string) => void) | undefined;
  /**
   * Pages fetched at once: a number (1 = one after another), or `auto`
   * (the default): several, adapted to the rate-limit headers and to 429s
   * (concurrency.ts), on the lists that can be pinned (page-pin.ts).
   */
  concurrency?: number | 'auto' | undefined;
  /**
   * The last page the caller wants, from its records (all of them, before
   * de-duplication): `--state` stops at the page that reaches its watermark.
   * Its records are yielded; nothing after it is fetched.
   */
  lastPage?: ((records: readonly Record<string, unknown>[]) => boolean) | undefined;
  /** The window of an interrupted run (`--resume`): every page is pinned to it from the first. */
  pin?: WindowPin | undefined;
  /**
   * A list in id order, newest first: the run's indexing position, records
   * above which are dropped (page-pin.ts). Read from page one when absent;
   * a run made of several requests passes the first one's to the others.
   */
  newestId?: number | undefined;
  /**
   * The most requests the run may send, pages, probes and counts together
   * (`--max-points`): none is sent past it, not even a prefetch. When it
   * stops a run that had more pages, a `capped` event says so.
   */
  maxRequests?: number | undefined;
  /**
   * Records the list is expected to hold, from a count taken before the run
   * (`--max-points`' estimate). Under `maxRequests`, a window that costs
   * requests (a probe, counts) opens only when this shows they fit beside
   * the pages; without it, such a window does not open under a budget.
   */
  expected?: number | undefined;
  /** Every response the run received, used or not (the points of a page fetched past the end count too). */
  onResponse?: ((response: ApiResponse<unknown>, kind: RequestKind) => void) | undefined;
  /** What the run decided (the CLI's `-v` and `--log-file`). */
  onEvent?: ((event: PagingEvent) => void) | undefined;
}

export type RequestKind = 'page' | 'probe' | 'count';

export type PagingEvent =
  /** Pages now go out several at once. */
  | {
      readonly kind: 'window';
      readonly concurrency: number;
      readonly adaptive: boolean;
      readonly pin: WindowPin | undefined;
      /** Records in the (pinned) list, when known (count, or the ids asked for). */
      readonly total: number | undefined;
    }
  /** The window's end was read (the run should keep it to resume in the same window). */
  | { readonly kind: 'pinned'; readonly pin: WindowPin }
  /** A list in id order: the run's indexing position, read from page one (records above it are dropped). */
  | { readonly kind: 'newest'; readonly id: number }
  /** Records of a page not handed over: already handed over, or indexed after the run's position. */
  | {
      readonly kind: 'skipped';
      readonly page: number;
      readonly of: number;
      readonly repeated: number;
      readonly later: number;
    }
  | ConcurrencyChange
  /** The pinned window's count changed during the run: a second pass follows. */
  | { readonly kind: 'moved'; readonly before: number; readonly after: number | undefined }
  /** `maxRequests` stopped a run that had more pages. */
  | { readonly kind: 'capped' };

export interface Page<R> {
  page: number;
  records: R[];
  envelope: Envelope;
  response: ApiResponse<Envelope>;
  /** From the second pass after the window moved: records the first pass missed, after all of its pages. */
  rescan?: boolean;
}

/** The part of the client pagination needs (keeps this module testable alone). */
export interface Requester {
  request<T>(options: RequestOptions & { raw?: false | undefined }): Promise<ApiResponse<T>>;
}
