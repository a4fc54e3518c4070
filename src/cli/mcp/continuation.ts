/**
 * `next`: the arguments that, added to the call just made, return the
 * records after the last one it returned, none skipped or repeated. A tool
 * continues with `page` and `limit`, the arguments it already takes: a
 * result cut after `k` records starts its continuation at position
 * (page − 1) × limit + k, which is page (start ÷ d) + 1 of a page size d
 * dividing start. The largest such d of at most 100 is chosen, and, while
 * the page the call read is in hand (page-cache.ts), one that stays inside
 * it, so the continuation is served from it and costs nothing. A list the
 * endpoint answers whole (suggestions, event types, trends, articles by id)
 * is continued the same way: the server then cuts the list it holds.
 */
import type { ParsedCall } from './arguments.js';
import type { PageCache } from './page-cache.js';
import { LIMIT_MAX } from './schema.js';
import type { ToolBinding } from './tools.js';

export type Arguments = Record<string, unknown>;

/** The largest page size of at most `cap` that starts a page at `start` (1 always does). */
function pageSize(start: number, cap: number): number {
  for (let d = Math.min(cap, start); d > 1; d--) if (start % d === 0) return d;
  return 1;
}

/** The `page` (and `limit`, when it changes) that start at position `start`. */
export function argumentsFrom(start: number, limit: number, cap: number, keep = true): Arguments {
  if (keep && start % limit === 0 && limit <= cap) return { page: start / limit + 1 };
  const size = pageSize(start, Math.max(1, cap));
  return size === limit ? { page: start / size + 1 } : { page: start / size + 1, limit: size };
}

export interface Position {
  /** Records the call had in hand before any cut. */
  readonly inHand: number;
  /** The list goes on past them. */
  readonly more: boolean;
  /** The pages in hand and the list the call read, to continue inside them. */
  readonly cache?: PageCache | undefined;
  readonly listKey?: string | undefined;
  /** The call's records came from pages in hand: its `limit` was likely chosen by a `next`. */
  readonly fromCache?: boolean | undefined;
}

/**
 * For a call's result: the arguments after its first `kept` records, or
 * undefined when nothing follows them (or the tool does not continue:
 * one record, a count, a file).
 */
export function continuation(
  binding: ToolBinding,
  call: ParsedCall,
  at: Position,
): (kept: number) => Arguments | undefined {
  const limit = call.limit;
  if (!binding.list || binding.exports || limit === undefined) return () => undefined;
  const offset = (call.page - 1) * limit;
  return (kept) => {
    if (kept >= at.inHand && !at.more) return undefined;
    const start = offset + kept;
    const extent =
      binding.pages && at.cache !== undefined && at.listKey !== undefined
        ? at.cache.extent(at.listKey, start)
        : undefined;
    // Inside the page in hand: free, whatever page size fits there.
    if (extent?.hasNext === true) return argumentsFrom(start, limit, extent.end - start);
    // Past it, a page size that `next` chose to fit inside (it may be tiny) gives
    // way to the largest: the pages to come are paid for, each request alike.
    return argumentsFrom(start, limit, LIMIT_MAX, at.fromCache !== true);
  };
}
