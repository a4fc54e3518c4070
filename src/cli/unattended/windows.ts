/**
 * Window splitting: a published_at range longer than the service accepts for
 * a title search (31 days, ER0110), or longer than `--split-window`, is
 * fetched as consecutive windows, in the order of the sort (newest window
 * first for the default descending order), and merged without duplicates by
 * the caller (an article on a boundary can match two windows).
 */
import { UsageError } from '../../api/errors.js';
import { searchParam } from '../../params/registry.js';
import { TITLE_WINDOW_DAYS } from '../../params/validate.js';
import { parseDateValue } from '../../params/values.js';

const DAY_MS = 86_400_000;

export interface Window {
  readonly start: string;
  readonly end: string;
}

function range(
  body: Readonly<Record<string, unknown>>,
  now: Date,
): { startMs: number | undefined; endMs: number } {
  const start = body['published_at.start'];
  const end = body['published_at.end'];
  const startMs = typeof start === 'string' ? parseDateValue(start) : undefined;
  const endMs =
    typeof end === 'string'
      ? parseDateValue(end) + (/^\d{4}-\d{2}-\d{2}$/.test(end) ? DAY_MS : 0)
      : now.getTime();
  return { startMs, endMs };
}

/** The window a title search needs when its range is over the service's 31 days, else undefined. */
export function titleWindowNeeded(
  body: Readonly<Record<string, unknown>>,
  now: Date,
): number | undefined {
  const title = Object.keys(body).some((name) => searchParam(name)?.titleWindow === true);
  if (!title) return undefined;
  const { startMs, endMs } = range(body, now);
  if (startMs === undefined) return undefined;
  return endMs - startMs > TITLE_WINDOW_DAYS * DAY_MS ? TITLE_WINDOW_DAYS * DAY_MS : undefined;
}

/**
 * How far past the local clock the newest window reaches when the range has
 * no end: the local clock may be behind the service's, and the newest articles
 * must not fall outside every window. That window's pages are pinned to its
 * newest article anyway (src/api/paging/page-pin.ts), read from the service.
 */
export const OPEN_END_MARGIN_MS = 3_600_000;

/** The windows, in fetching order; one window when the range fits in `spanMs`. */
export function splitWindows(
  body: Readonly<Record<string, unknown>>,
  spanMs: number,
  now: Date,
): Window[] {
  const { startMs, endMs: rangeEnd } = range(body, now);
  const endMs =
    typeof body['published_at.end'] === 'string' ? rangeEnd : rangeEnd + OPEN_END_MARGIN_MS;
  if (startMs === undefined) {
    throw new UsageError('--split-window needs --published-at-start: there is no range to split');
  }
  if (endMs <= startMs) return [];
  const windows: Window[] = [];
  for (let from = startMs; from < endMs; from += spanMs) {
    const to = Math.min(from + spanMs, endMs);
    windows.push({ start: isoSeconds(from), end: isoSeconds(to) });
  }
  const ascending = body['sort.order'] === 'asc';
  return ascending ? windows : windows.reverse();
}

/** ISO without milliseconds: the form the parameter table documents for dates. */
function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
