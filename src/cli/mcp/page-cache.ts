/**
 * Pages the server has paid for, kept so that following `next` after a
 * result cut to the size budget (result-budget.ts) does not pay for them
 * again. An entry is one fetched page (or one whole answer of a list the
 * endpoint answers at once), keyed by its request without `page` and
 * `per_page`, holding its records at their positions in the list. A call
 * is served from it only when it continues a list: its window starts after
 * the entry's first record and lies within what the entry holds (or runs
 * past the list's end). The same call asked again starts where the entry
 * does, so it is fetched afresh. Entries are few and short-lived: a page
 * is kept to be continued, not to stand in for the service.
 */
import type { ApiResponse, RequestSpec } from '../../api/types.js';

/** Enough for a few agents continuing at once; a page of 100 articles with bodies is ~350 KB. */
const ENTRIES = 24;
/** An agent follows `next` within seconds; past this the list may have moved. */
const LIFETIME_MS = 10 * 60_000;

export interface CachedPage {
  /** The position of the entry's first record in the list. */
  readonly start: number;
  readonly records: readonly Record<string, unknown>[];
  readonly envelope: Record<string, unknown>;
  readonly response: ApiResponse<unknown>;
  /** The service said more pages follow the entry's last record. */
  readonly hasNext: boolean;
}

export interface Window {
  readonly records: readonly Record<string, unknown>[];
  readonly entry: CachedPage;
  /** More follow the window's last record (in the entry, or in the list past it). */
  readonly hasNext: boolean;
}

interface Held {
  readonly page: CachedPage;
  readonly at: number;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'page' && k !== 'per_page')
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, sorted(v)]),
    );
  }
  return value;
}

/** The list a request reads, whatever page of it: method, path and parameters but paging. */
export function listKey(spec: RequestSpec): string {
  return JSON.stringify([
    spec.method,
    spec.path,
    sorted(spec.query ?? {}),
    sorted(spec.body ?? {}),
  ]);
}

export class PageCache {
  private readonly entries = new Map<string, Held[]>();
  private count = 0;
  /** Whole answers of lists the endpoint answers at once, read again by a call for a later `page`. */
  private readonly answers = new Map<string, { response: ApiResponse<unknown>; at: number }>();
  private readonly lists = new Map<string, { pages: readonly unknown[]; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  putAnswer(key: string, response: ApiResponse<unknown>): void {
    this.answers.delete(key);
    this.answers.set(key, { response, at: this.now() });
    // A Map keeps insertion order: the first key is the oldest.
    while (this.answers.size > ENTRIES) this.answers.delete(this.answers.keys().next().value!);
  }

  /** Every page of a list read whole in several requests (articles by id), in order. */
  putList(key: string, pages: readonly unknown[]): void {
    this.lists.delete(key);
    this.lists.set(key, { pages, at: this.now() });
    while (this.lists.size > ENTRIES) this.lists.delete(this.lists.keys().next().value!);
  }

  list(key: string): readonly unknown[] | undefined {
    const held = this.lists.get(key);
    if (held === undefined || held.at < this.now() - LIFETIME_MS) return undefined;
    return held.pages;
  }

  answer(key: string): ApiResponse<unknown> | undefined {
    const held = this.answers.get(key);
    if (held === undefined || held.at < this.now() - LIFETIME_MS) return undefined;
    return held.response;
  }

  /** Keeps a fetched page (replacing one that started at the same position). */
  put(key: string, page: CachedPage): void {
    const live = this.live(key).filter((h) => h.page.start !== page.start);
    live.push({ page, at: this.now() });
    this.entries.set(key, live);
    this.recount();
    while (this.count > ENTRIES) this.dropOldest();
  }

  /** Records [start, start + size) of the list, when a page in hand covers them as a continuation. */
  window(key: string, start: number, size: number): Window | undefined {
    for (const { page } of this.live(key)) {
      const end = page.start + page.records.length;
      if (start <= page.start || start >= end) continue;
      if (start + size > end && page.hasNext) continue;
      const records = page.records.slice(start - page.start, start - page.start + size);
      return { records, entry: page, hasNext: start + size < end || page.hasNext };
    }
    return undefined;
  }

  /** The end of the page in hand that holds position `at`, and whether the list goes on past it. */
  extent(key: string, at: number): { end: number; hasNext: boolean } | undefined {
    let furthest: { end: number; hasNext: boolean } | undefined;
    for (const { page } of this.live(key)) {
      const end = page.start + page.records.length;
      if (at >= page.start && at < end && (furthest === undefined || end > furthest.end)) {
        furthest = { end, hasNext: page.hasNext };
      }
    }
    return furthest;
  }

  private live(key: string): Held[] {
    const cutoff = this.now() - LIFETIME_MS;
    const held = (this.entries.get(key) ?? []).filter((h) => h.at >= cutoff);
    if (held.length === 0) this.entries.delete(key);
    else this.entries.set(key, held);
    return held;
  }

  private recount(): void {
    this.count = [...this.entries.values()].reduce((n, list) => n + list.length, 0);
  }

  private dropOldest(): void {
    let oldest: [string, Held] | undefined;
    for (const [key, list] of this.entries) {
      for (const held of list)
        if (oldest === undefined || held.at < oldest[1].at) oldest = [key, held];
    }
    if (oldest === undefined) return;
    const [key, held] = oldest;
    const rest = (this.entries.get(key) ?? []).filter((h) => h !== held);
    if (rest.length === 0) this.entries.delete(key);
    else this.entries.set(key, rest);
    this.recount();
  }
}
