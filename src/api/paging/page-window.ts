/**
 * The engine behind paginate(): pages fetched ahead of the consumer, several
 * at once, handed over in page order.
 *
 * A run starts one page after another, each page asked for while the
 * consumer handles the one before (the prefetch of one). Once it pays, the
 * window opens and up to `concurrency.current` pages are in flight or waiting
 * beyond the one the consumer holds, so memory holds that many pages, never
 * the export:
 * - once the run has shown it is longer than OPEN_AFTER_PAGES pages: pages
 *   asked for past an unknown end are wasted, and the probe and counts of a
 *   pinned window cost requests, so a short run costs what it did one page
 *   at a time; a list whose size the request names (articles by id) opens
 *   after its first page;
 * - growing lists only within a pinned window (page-pin.ts); lists that do
 *   not grow during a run (`fixed`) need none.
 *
 * Answers are processed in page order whatever order they arrive in and
 * read by one PageReader (page-read.ts: repeats and records indexed after
 * the run began dropped, whether paging goes on), a failed page fails the
 * run after the pages before it were handed over, and the end of the list
 * aborts the pages asked for past it. The window's probe and counts are
 * page-prepare.ts; a counted window is counted again at the end, and when
 * the count moved a second pass adds what the first one missed
 * (page-rescan.ts). Requests and their budget: page-requests.ts.
 */
import { AdaptiveConcurrency } from './concurrency.js';
import { withPage } from './page-parse.js';
import {
  type ListKind,
  type WindowPin,
  endFromFirstPage,
  knownTotal,
  listKind,
  newestFirst,
  pinned,
} from './page-pin.js';
import { countWindow, prepareWindow, windowCost } from './page-prepare.js';
import { PageReader } from './page-read.js';
import { RunRequests } from './page-requests.js';
import { verifyWindow } from './page-rescan.js';
import type { Page, PaginateOptions, Requester } from './page-types.js';
import type { ApiObject } from './page-memory.js';
import type { ApiResponse, RateLimitInfo, RequestSpec } from '../types.js';
import { InterruptedError } from '../errors.js';

/** Pages a growing list shows, one after another, before the probe and counts of a window are worth their cost. */
export const OPEN_AFTER_PAGES = 3;

type Outcome = { readonly ok: ApiResponse<unknown> } | { readonly error: unknown };
type Ready<R> = { readonly page: Page<R> } | { readonly error: unknown };

interface Slot {
  readonly controller: AbortController;
  outcome?: Outcome;
}

export class PagedRun<R> {
  readonly #request: RequestSpec;
  readonly #o: PaginateOptions;
  readonly #controller = new AbortController();
  readonly #reader: PageReader;
  readonly #requests: RunRequests;
  readonly #kind: ListKind;
  readonly #start: number;
  readonly #warn: (message: string) => void;
  /** Undefined with concurrency 1: the window never opens. */
  readonly #concurrency: AdaptiveConcurrency | undefined;

  #pin: WindowPin | undefined;
  #opened = false;
  #opening = false;
  /** Set when the window cannot be opened (no end to pin it to): one page after another. */
  #noWindow = false;
  #pageSize: number | undefined;
  /** Records in the list: the pinned count, or the ids asked for. */
  #total: number | undefined;
  #countBefore: number | undefined;
  #countAfter: Promise<number | undefined> | undefined;

  #next: number;
  #processed: number;
  #delivered: number;
  readonly #slots = new Map<number, Slot>();
  readonly #ready: Ready<R>[] = [];
  #ended = false;
  #wake: (() => void) | undefined;
  #pages = 0;

  constructor(client: Requester, request: RequestSpec, options: PaginateOptions) {
    this.#request = request;
    this.#o = options;
    this.#kind = listKind(request);
    this.#start = options.startPage ?? 1;
    this.#next = this.#start;
    this.#processed = this.#start - 1;
    this.#delivered = this.#start - 1;
    this.#warn = options.onWarning ?? (() => {});
    this.#pin = options.pin;
    this.#reader = new PageReader(request, options);
    const asked = options.concurrency ?? 'auto';
    this.#concurrency =
      asked === 'auto' || asked > 1
        ? new AdaptiveConcurrency(asked === 'auto' ? undefined : asked, (change) =>
            options.onEvent?.(change),
          )
        : undefined;
    this.#requests = new RunRequests(client, options, this.#concurrency);
  }

  async *pages(): AsyncGenerator<Page<R>, void, undefined> {
    const { limit, maxPages, signal } = this.#o;
    if ((limit !== undefined && limit <= 0) || (maxPages !== undefined && maxPages <= 0)) return;
    const onAbort = (): void => this.#abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      this.#pump();
      for (;;) {
        const item = await this.#nextReady();
        if (item === undefined) break;
        if ('error' in item) throw item.error;
        this.#delivered = item.page.page;
        // The next pages are asked for while the consumer handles this one.
        this.#pump();
        yield item.page;
      }
      const before = this.#countBefore;
      const after = this.#countAfter;
      if (before !== undefined && after !== undefined) {
        yield* verifyWindow<R>({
          options: this.#o,
          start: this.#start,
          reader: this.#reader,
          requests: this.#requests,
          signal: this.#controller.signal,
          before,
          after,
          pageSize: this.#pageSize,
          pageRequest: (page) => this.#pageRequest(page),
        });
      }
    } finally {
      this.#abort(new Error('pagination stopped'));
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #abort(reason: unknown): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
    for (const slot of this.#slots.values()) slot.controller.abort(reason);
  }

  async #nextReady(): Promise<Ready<R> | undefined> {
    for (;;) {
      const item = this.#ready.shift();
      if (item !== undefined) return item;
      if (this.#ended) return undefined;
      if (this.#controller.signal.aborted) return { error: new InterruptedError('interrupted') };
      if (this.#slots.size === 0 && !this.#opening) {
        // Nothing on its way and nothing may be sent: the request budget ran out.
        this.#o.onEvent?.({ kind: 'capped' });
        this.#ended = true;
        return undefined;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #pump(): void {
    while (this.#mayLaunch()) this.#launch(this.#next++);
  }

  #mayLaunch(): boolean {
    if (this.#ended || this.#opening || this.#controller.signal.aborted) return false;
    const page = this.#next;
    const { maxPages, limit } = this.#o;
    if (maxPages !== undefined && page >= this.#start + maxPages) return false;
    const width = this.#opened ? (this.#concurrency?.current ?? 1) : 1;
    // At most `width` pages beyond the one the consumer holds, in flight or waiting.
    if (page - this.#delivered > width) return false;
    if (page > this.#processed + 1) {
      // Asking before the page before has answered is speculation: only in the window,
      // not past the list's known end, and not past what --limit needs.
      if (!this.#opened) return false;
      const size = this.#pageSize;
      if (size !== undefined && this.#total !== undefined && page > Math.ceil(this.#total / size))
        return false;
      if (
        limit !== undefined &&
        size !== undefined &&
        this.#reader.handed + (page - 1 - this.#processed) * size >= limit
      )
        return false;
    }
    return this.#requests.affordable(1);
  }

  /** The request of a page: pinned once the window's end is known. */
  #pageRequest(page: number): RequestSpec {
    const request = this.#pin === undefined ? this.#request : pinned(this.#request, this.#pin);
    return withPage(request, page, this.#o.perPage, this.#o.placement);
  }

  #launch(page: number): void {
    const slot: Slot = { controller: new AbortController() };
    this.#slots.set(page, slot);
    let sending: Promise<ApiResponse<unknown>>;
    try {
      sending = this.#requests.send(this.#pageRequest(page), 'page', slot.controller.signal);
    } catch (error) {
      sending = Promise.reject(error);
    }
    sending
      .then(
        (response) => {
          slot.outcome = { ok: response };
        },
        (error: unknown) => {
          slot.outcome = { error };
        },
      )
      .finally(() => this.#settled());
  }

  /** Processes the answers that arrived, in page order, then asks for more. */
  #settled(): void {
    while (!this.#ended) {
      const page = this.#processed + 1;
      const outcome = this.#slots.get(page)?.outcome;
      if (outcome === undefined) break;
      this.#slots.delete(page);
      this.#processed = page;
      if ('error' in outcome) this.#fail(outcome.error);
      else {
        try {
          this.#process(page, outcome.ok);
        } catch (error) {
          this.#fail(error);
        }
      }
    }
    this.#pump();
    this.#wakeUp();
  }

  #process(page: number, response: ApiResponse<unknown>): void {
    const read = this.#reader.read<R>(page, response.body, false);
    this.#pages += 1;
    if (this.#opened) this.#concurrency?.onResponse(response.rateLimit);
    const more = this.#reader.goesOn(page, read);
    if (page === this.#start && more) this.#learn(read.objects, read.received);
    const { envelope, records } = read;
    this.#ready.push({
      page: { page, records, envelope, response: { ...response, body: envelope } },
    });
    if (!more) this.#end();
    else this.#maybeOpen(response);
  }

  /** From the first page: the page size, and the window's end when the order is newest first. */
  #learn(objects: readonly ApiObject[], received: number): void {
    this.#pageSize = received;
    if (this.#pin !== undefined || this.#start !== 1) return;
    if (this.#kind !== 'pinned' && this.#kind !== 'counted') return;
    if (!newestFirst(this.#request)) return;
    const end = endFromFirstPage(objects);
    if (end === undefined) return;
    this.#pinAt({ end });
  }

  #pinAt(pin: WindowPin): void {
    this.#pin = pin;
    this.#o.onEvent?.({ kind: 'pinned', pin });
  }

  #maybeOpen(response: ApiResponse<unknown>): void {
    if (this.#opened || this.#opening || this.#noWindow || this.#concurrency === undefined) return;
    const rate = response.rateLimit;
    // Pages asked for past an unknown end are wasted (and may cost points):
    // only a list whose size the request names opens at once.
    if (this.#pages < OPEN_AFTER_PAGES && knownTotal(this.#request) === undefined) return;
    const cost = windowCost(this.#kind, this.#pin !== undefined, response.mode);
    if (cost === undefined) return;
    if (cost.requests === 0) this.#open(rate);
    else if (this.#costFits(cost.requests)) {
      this.#opening = true;
      void this.#prepare(cost.counted, rate);
    }
  }

  /**
   * Whether a window's own requests fit in the budget beside the pages the
   * run still needs: known from the count taken before the run, else only
   * without a budget (two pages at least must remain for it to be worth it).
   */
  #costFits(cost: number): boolean {
    if (this.#o.maxRequests === undefined) return true;
    const { expected } = this.#o;
    const left = expected === undefined ? undefined : this.#pagesLeft(expected);
    return left !== undefined && this.#requests.affordable(cost + Math.max(2, left));
  }

  /** Pages still to fetch of a list of `records`; undefined before the page size is known. */
  #pagesLeft(records: number): number | undefined {
    const size = this.#pageSize;
    return size === undefined ? undefined : Math.ceil(records / size) - this.#processed;
  }

  async #prepare(counted: boolean, rate: RateLimitInfo | undefined): Promise<void> {
    try {
      const ready = await prepareWindow({
        request: this.#request,
        recordsKey: this.#o.recordsKey ?? 'results',
        requests: this.#requests,
        signal: this.#controller.signal,
        pin: this.#pin,
        counted,
        onPin: (pin) => this.#pinAt(pin),
        fits: (count) => this.#requests.affordable((this.#pagesLeft(count) ?? 0) + 1),
      });
      if (ready === undefined) {
        this.#noWindow = true;
        return;
      }
      if (ready.count !== undefined) {
        // The closing count is promised: no page takes its place in the budget.
        this.#requests.reserved = 1;
        this.#countBefore = ready.count;
        this.#total = ready.count;
      }
      this.#open(rate);
    } catch (error) {
      if (error instanceof InterruptedError || this.#controller.signal.aborted) this.#fail(error);
      else {
        // The pages can still be fetched one after another, pinned if the end is known.
        this.#noWindow = true;
        this.#warn(
          `could not prepare pages in parallel (${error instanceof Error ? error.message : String(error)}); fetching one page after another`,
        );
      }
    } finally {
      this.#opening = false;
      this.#pump();
      this.#wakeUp();
    }
  }

  #open(rate: RateLimitInfo | undefined): void {
    const concurrency = this.#concurrency;
    if (concurrency === undefined) return;
    this.#opened = true;
    this.#total ??= knownTotal(this.#request);
    concurrency.open(rate);
    this.#o.onEvent?.({
      kind: 'window',
      concurrency: concurrency.current,
      adaptive: this.#o.concurrency === undefined || this.#o.concurrency === 'auto',
      pin: this.#pin,
      total: this.#total,
    });
  }

  #end(): void {
    this.#ended = true;
    for (const slot of this.#slots.values()) slot.controller.abort(new Error('past the end'));
    this.#slots.clear();
    // A list cut short is not read again: its server pages in circles.
    if (this.#countBefore !== undefined && this.#pin !== undefined && !this.#reader.cut) {
      // The closing count, while the last pages are handed over.
      this.#requests.reserved = 0;
      const { signal } = this.#controller;
      this.#countAfter = countWindow(this.#requests, this.#request, this.#pin, signal);
      this.#countAfter.catch(() => undefined);
    }
  }

  #fail(error: unknown): void {
    this.#ready.push({ error });
    this.#ended = true;
    this.#countBefore = undefined;
    this.#abort(error);
  }
}
