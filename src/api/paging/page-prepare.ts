/**
 * What a window needs before its pages go out at once (page-window.ts), each
 * a request: its end, when page one could not tell it (a one-article probe
 * sorted newest first), and on the search endpoint the pinned window's
 * count, which says where the list ends and is taken again at the end
 * (page-rescan.ts).
 */
import { asEnvelope, recordsOf } from './page-parse.js';
import {
  type ListKind,
  type WindowPin,
  newestProbe,
  pinnedCount,
  publishedAt,
} from './page-pin.js';
import type { RunRequests } from './page-requests.js';
import type { ApiResponse, RequestSpec } from '../types.js';

/**
 * What opening a list's window takes in requests: none (a list that does
 * not grow, or one already pinned and not counted), a probe for its end,
 * counts; undefined: the list is never paged in parallel.
 */
export function windowCost(
  kind: ListKind,
  pinned: boolean,
  mode: ApiResponse<unknown>['mode'],
): { readonly counted: boolean; readonly requests: number } | undefined {
  if (kind === 'fixed') return { counted: false, requests: 0 };
  if (kind !== 'pinned' && kind !== 'counted') return undefined;
  // Test keys' counts stop at 100: nothing to check a window with.
  const counted = kind === 'counted' && mode !== 'test';
  return { counted, requests: (pinned ? 0 : 1) + (counted ? 2 : 0) };
}

export interface WindowNeeds {
  readonly request: RequestSpec;
  readonly recordsKey: string;
  readonly requests: RunRequests;
  readonly signal: AbortSignal;
  /** The end already known (page one, or --resume), else one is probed. */
  readonly pin: WindowPin | undefined;
  /** Whether the window is counted (the search endpoint, a key whose counts are exact). */
  readonly counted: boolean;
  /** Told the end once probed. */
  readonly onPin: (pin: WindowPin) => void;
  /** Whether the pages a count of this many records leaves, and the closing count, fit in the budget. */
  readonly fits: (count: number) => boolean;
}

/** The window ready to open (pinned, counted when it must be), or undefined: pages go one after another. */
export async function prepareWindow(
  needs: WindowNeeds,
): Promise<{ pin: WindowPin; count: number | undefined } | undefined> {
  let pin = needs.pin;
  if (pin === undefined) {
    const answer = await needs.requests.send(newestProbe(needs.request), 'probe', needs.signal);
    const path = needs.request.path;
    const [first] = recordsOf(asEnvelope(answer.body, path), needs.recordsKey, path);
    const end = publishedAt(first as Record<string, unknown> | undefined);
    if (end === undefined) return undefined;
    pin = { end };
    needs.onPin(pin);
  }
  if (!needs.counted) return { pin, count: undefined };
  const count = await countWindow(needs.requests, needs.request, pin, needs.signal);
  // Under a request budget, the closing count must not be what stops the run.
  if (count === undefined || !needs.fits(count)) return undefined;
  return { pin, count };
}

/** `count` over the pinned window, or undefined when the answer has none. */
export async function countWindow(
  requests: RunRequests,
  request: RequestSpec,
  pin: WindowPin,
  signal: AbortSignal,
): Promise<number | undefined> {
  const answer = await requests.send(pinnedCount(request, pin), 'count', signal);
  const count = (answer.body as { count?: unknown } | null)?.count;
  return typeof count === 'number' ? count : undefined;
}
