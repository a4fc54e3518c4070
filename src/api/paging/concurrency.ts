/**
 * How many pages a paged run keeps in flight, adapted to what the service
 * says: additive increase while pages come back clean, halving on push-back.
 *
 * - Start: `DEFAULT_START` (or the caller's fixed number), never more than the
 *   rate-limit headers allow (below).
 * - Up: one more page in flight after as many clean pages in a row as are in
 *   flight, up to `DEFAULT_MAX` (or the caller's number), and never back to a
 *   level that was throttled in this run.
 * - Down: halved on a 429 or a 503 (the service pushing back), and capped by
 *   the `X-RateLimit-*` headers: never more in flight than a tenth of the
 *   requests left in the window, and one at a time once the client's rate
 *   limiter paces (src/api/rate-limiter.ts, the last tenth of the window).
 *   So a run that was not throttled one page at a time is not throttled by
 *   running several at once.
 */
import { PACE_BELOW } from '../rate-limiter.js';
import type { RateLimitInfo } from '../types.js';

/** Pages in flight when the window opens, unless the caller fixes the number. */
export const DEFAULT_START = 4;
/** The most the default ever reaches. */
export const DEFAULT_MAX = 8;
/** The most a caller may ask for (`--concurrency`). */
export const MAX_CONCURRENCY = 16;

export type ConcurrencyChange =
  | { readonly kind: 'up' | 'rate-limit'; readonly from: number; readonly to: number }
  | {
      readonly kind: 'back-off';
      readonly from: number;
      readonly to: number;
      /** The HTTP status that asked for it. */
      readonly status: number;
    };

export class AdaptiveConcurrency {
  #current: number;
  #ceiling: number;
  #clean = 0;
  /** The highest number of pages in flight this run reached. */
  peak: number;
  /** How many times the service pushed back (429, 503). */
  backoffs = 0;

  constructor(
    /** A fixed number (`--concurrency N`) is the start and the ceiling; undefined: adaptive. */
    fixed: number | undefined,
    private readonly onChange: (change: ConcurrencyChange) => void = () => {},
  ) {
    this.#ceiling = Math.min(MAX_CONCURRENCY, Math.max(1, fixed ?? DEFAULT_MAX));
    this.#current = Math.min(this.#ceiling, fixed ?? DEFAULT_START);
    this.peak = 1;
  }

  /** Tag a request with this when it is sent; `onRetry` takes it back. */
  get epoch(): number {
    return this.backoffs;
  }

  /** Pages that may be in flight now. */
  get current(): number {
    return this.#current;
  }

  /** The window opens: the starting number, within what the last response's headers allow. */
  open(rate: RateLimitInfo | undefined): void {
    this.#current = Math.min(this.#current, capFrom(rate, this.#ceiling));
    this.peak = Math.max(this.peak, this.#current);
  }

  /** A page came back (possibly after retries that were not push-back). */
  onResponse(rate: RateLimitInfo | undefined): void {
    const cap = capFrom(rate, this.#ceiling);
    if (this.#current > cap) {
      this.#set('rate-limit', cap);
      this.#clean = 0;
      return;
    }
    this.#clean += 1;
    if (this.#clean >= this.#current && this.#current < cap) {
      this.#clean = 0;
      this.#set('up', this.#current + 1);
    }
  }

  /**
   * A request is about to be retried after `status`: 429 and 503 halve the
   * window, once per burst: a request sent before the last back-off (`epoch`
   * then) was part of the load already answered for.
   */
  onRetry(status: number | undefined, epoch: number): void {
    if (status !== 429 && status !== 503) return;
    if (epoch < this.backoffs) return;
    this.backoffs += 1;
    this.#clean = 0;
    // Never climb back to a level the service throttled.
    this.#ceiling = Math.max(1, Math.min(this.#ceiling, this.#current - 1));
    this.#set('back-off', Math.max(1, Math.floor(this.#current / 2)), status);
  }

  #set(kind: 'up' | 'rate-limit' | 'back-off', to: number, status?: number): void {
    const from = this.#current;
    if (to === from) return;
    this.#current = to;
    this.peak = Math.max(this.peak, to);
    this.onChange(
      kind === 'back-off' ? { kind, from, to, status: status ?? 0 } : { kind, from, to },
    );
  }
}

/** What the rate-limit headers allow in flight: a tenth of what remains, one once pacing starts. */
function capFrom(rate: RateLimitInfo | undefined, ceiling: number): number {
  const remaining = rate?.remaining;
  if (remaining === undefined) return ceiling;
  const limit = rate?.limit;
  if (limit !== undefined && remaining <= Math.ceil(limit * PACE_BELOW)) return 1;
  return Math.max(1, Math.min(ceiling, Math.floor(remaining / 10)));
}
