/**
 * One page's answer, read the same way in both passes of a run
 * (page-window.ts, page-rescan.ts): checked (page-parse.ts), its repeats
 * dropped (page-memory.ts), on a list in id order the records indexed after
 * the run began dropped too (page-pin.ts), cut to `limit`; then whether
 * paging goes on, and why not when the server said it could.
 */
import { type ApiObject, type Envelope, PageMemory } from './page-memory.js';
import { asEnvelope, onlyObjects, recordsOf } from './page-parse.js';
import { indexedAfter, newestIdFirst, newestIdFromFirstPage } from './page-pin.js';
import type { PaginateOptions } from './page-types.js';
import type { RequestSpec } from '../types.js';

export interface PageRead<R> {
  readonly envelope: Envelope;
  /** Every object of the page, before de-duplication (what `lastPage` judges). */
  readonly objects: readonly ApiObject[];
  /** Entries of the page's records, objects or not. */
  readonly received: number;
  /** What the page hands over. */
  readonly records: R[];
  /** Why paging must stop after this page (page-memory.ts), if it must. */
  readonly stop: string | undefined;
}

const ignore = (): void => {};

export class PageReader {
  readonly #memory = new PageMemory();
  readonly #path: string;
  readonly #key: string;
  readonly #start: number;
  readonly #o: PaginateOptions;
  readonly #warn: (message: string) => void;
  /** The run's indexing position, on a list in id order newest first; undefined: nothing is dropped. */
  #newest: number | undefined;
  readonly #learnNewest: boolean;
  /** Records handed over so far, both passes. */
  handed = 0;
  /** Whether paging was cut short (the server said more pages follow): no second pass then. */
  cut = false;

  constructor(request: RequestSpec, options: PaginateOptions) {
    this.#path = request.path;
    this.#key = options.recordsKey ?? 'results';
    this.#start = options.startPage ?? 1;
    this.#o = options;
    this.#warn = options.onWarning ?? ignore;
    const byId = newestIdFirst(request);
    this.#newest = byId ? options.newestId : undefined;
    this.#learnNewest = byId && this.#newest === undefined && this.#start === 1;
  }

  read<R>(page: number, body: unknown, rescan: boolean): PageRead<R> {
    const envelope = asEnvelope(body, this.#path);
    const received = recordsOf(envelope, this.#key, this.#path);
    const objects = onlyObjects(received, page, this.#warn);
    if (this.#learnNewest && !rescan && page === 1) this.#learn(objects);
    const { fresh, stop } = this.#memory.take(objects, received.length, envelope, page, rescan);
    const newest = this.#newest;
    const kept = newest === undefined ? fresh : fresh.filter((r) => !indexedAfter(r, newest));
    const limit = this.#o.limit;
    const records = (limit === undefined ? kept : kept.slice(0, limit - this.handed)) as R[];
    this.handed += records.length;
    // A second pass repeats the first by design: only what it leaves out is news.
    const repeated = rescan ? 0 : objects.length - fresh.length;
    const later = fresh.length - kept.length;
    if (repeated > 0 || later > 0) {
      this.#o.onEvent?.({ kind: 'skipped', page, of: objects.length, repeated, later });
    }
    return { envelope, objects, received: received.length, records, stop };
  }

  #learn(objects: readonly ApiObject[]): void {
    this.#newest = newestIdFromFirstPage(objects);
    if (this.#newest !== undefined) this.#o.onEvent?.({ kind: 'newest', id: this.#newest });
  }

  /**
   * Whether paging goes on after this page. When the server says more pages
   * follow but paging cannot go on (it goes round in circles, or sent an
   * empty page), the list was cut short: `onCut` is told (a warning by
   * default; it may throw to fail the run). The caller's own ends (its last
   * page, `maxPages`, `limit`) are no cut.
   */
  goesOn(page: number, read: PageRead<unknown>): boolean {
    if (read.envelope['has_next_pages'] !== true) return false;
    const { lastPage, maxPages, limit } = this.#o;
    if (lastPage?.(read.objects) === true) return false;
    if (maxPages !== undefined && page - this.#start + 1 >= maxPages) return false;
    if (limit !== undefined && this.handed >= limit) return false;
    // An empty page claiming more would loop forever.
    const cut =
      read.stop ??
      (read.received === 0 ? `page ${page} was empty but said more pages follow` : undefined);
    if (cut === undefined) return true;
    this.cutShort(cut);
    return false;
  }

  /** Paging stops though the server says more pages follow: a warning, or the caller's `onCut`. */
  cutShort(reason: string): void {
    this.cut = true;
    if (this.#o.onCut === undefined) this.#warn(`${reason}; stopped paging`);
    else this.#o.onCut(reason);
  }

  /** A second pass starts: its page numbers start again from the first. */
  restart(): void {
    this.#memory.restart();
  }
}
