/**
 * Client-side pacing from the `X-RateLimit-*` headers, so a long export slows
 * down before the service throttles it rather than after (a 429 costs a
 * retry, and a Retry-After longer than the client waits ends the run).
 *
 * While more than a tenth of the window's requests remain, requests go out at
 * once. Below that, the remaining requests are spread evenly over the time
 * left until the window resets; at zero the next request waits for the
 * reset. Each request sent counts against the last known remainder until the
 * next response brings the server's own figure.
 *
 * Requests sent at once (a paged run with several pages in flight) take
 * turns here: each one's wait is decided after the previous one's, from the
 * remainder it left, so paced requests go out one interval apart instead of
 * together after the same delay.
 */
import { type HeaderMap, rateLimitOf } from './response-meta.js';
import type { SleepFn } from './types.js';

/** Start pacing when fewer than this share of the window's requests remain. */
export const PACE_BELOW = 0.1;
/** …or fewer than this many, when the server sends no limit. */
const PACE_BELOW_ABSOLUTE = 10;

export class RateLimiter {
  #remaining: number | undefined;
  #limit: number | undefined;
  #resetAtMs: number | undefined;
  /** The previous request's turn: settled once it has waited and been counted. */
  #turn: Promise<void> = Promise.resolve();
  /** Total time spent waiting, for reports. */
  waitedMs = 0;

  constructor(
    private readonly now: () => number,
    private readonly sleep: SleepFn,
  ) {}

  /** Takes the server's figures from a response (the client passes successful ones: the retry policy paces error answers). */
  observe(headers: HeaderMap): void {
    const info = rateLimitOf(headers, this.now());
    if (info === undefined) return;
    if (info.limit !== undefined) this.#limit = info.limit;
    if (info.remaining !== undefined) this.#remaining = info.remaining;
    if (info.resetAt !== undefined) this.#resetAtMs = info.resetAt.getTime();
  }

  /** How long the next request should wait, from what is known now. */
  delayMs(): number {
    const remaining = this.#remaining;
    const resetAt = this.#resetAtMs;
    if (remaining === undefined || resetAt === undefined) return 0;
    const untilReset = resetAt - this.now();
    if (untilReset <= 0) return 0;
    if (remaining <= 0) return untilReset;
    const low =
      this.#limit === undefined
        ? PACE_BELOW_ABSOLUTE
        : Math.max(1, Math.ceil(this.#limit * PACE_BELOW));
    if (remaining > low) return 0;
    return Math.ceil(untilReset / (remaining + 1));
  }

  /** Waits (after the requests before it) as long as `delayMs` says, then counts the request about to be sent. */
  async beforeRequest(signal?: AbortSignal): Promise<void> {
    const previous = this.#turn;
    let done = (): void => {};
    this.#turn = new Promise((resolve) => {
      done = resolve;
    });
    try {
      await previous;
      await this.#wait(signal);
    } finally {
      done();
    }
  }

  async #wait(signal: AbortSignal | undefined): Promise<void> {
    const delay = this.delayMs();
    if (delay > 0) {
      this.waitedMs += delay;
      await this.sleep(delay, signal);
      // The window may have reset while we waited: the next response will tell.
      if (this.#resetAtMs !== undefined && this.now() >= this.#resetAtMs) {
        this.#remaining = undefined;
        this.#resetAtMs = undefined;
      }
    }
    if (this.#remaining !== undefined) this.#remaining = Math.max(0, this.#remaining - 1);
  }
}
