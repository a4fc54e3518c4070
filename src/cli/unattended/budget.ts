/**
 * `--max-points N`: an estimate from `count` before the first page (refuse to
 * start when it is over), and a running total from the `X-Points-Used`
 * headers that stops paging before the next page would go over.
 */
import type { ApiResponse, RequestSpec } from '../../api/types.js';
import { thousands } from '../../output/text.js';

/** What one search page costs when the server does not say: the mock's and the provider's 1 point. */
export const POINTS_PER_PAGE = 1;
/** A prompt costs this much more the first time its wording is seen (spec, "Points"). */
export const PROMPT_POINTS = 2;

export interface Estimate {
  readonly count: number;
  readonly pages: number;
  readonly points: number;
  readonly perPage: number;
}

/** Paths whose filters `/v1/news/count` understands: only the everything search. */
export function countable(spec: RequestSpec): boolean {
  return spec.path === '/v1/news/everything' && spec.method === 'POST';
}

/** The body `count` takes (one rule, shared with the paging window's counts). */
export { countBody } from '../../api/paging/page-pin.js';

export function estimateFrom(
  count: number,
  perPage: number,
  limit: number | undefined,
  hasPrompt: boolean,
): Estimate {
  const records = limit === undefined ? count : Math.min(count, limit);
  const pages = Math.max(1, Math.ceil(records / perPage));
  return {
    count,
    pages,
    perPage,
    points: pages * POINTS_PER_PAGE + (hasPrompt ? PROMPT_POINTS : 0),
  };
}

/** Points a response says it cost; assumes the usual page price when the server is silent. */
export function pointsOf(response: ApiResponse<unknown>): number {
  const used = Number(response.usage['x-points-used']);
  if (response.mode === 'test') return 0;
  return Number.isFinite(used) && response.usage['x-points-used'] !== undefined
    ? used
    : POINTS_PER_PAGE;
}

export function describeEstimate(e: Estimate): string {
  const plural = (n: number, word: string) => `${thousands(n)} ${word}${n === 1 ? '' : 's'}`;
  return `estimate: ${plural(e.count, 'matching article')}, ${plural(e.pages, 'page')} of ${e.perPage}, about ${plural(e.points, 'point')} (+ the count request)`;
}
