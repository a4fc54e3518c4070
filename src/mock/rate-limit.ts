/**
 * Per-key sliding-window rate limit (an exact sliding log). The spec gives no
 * numbers, so the mock picks some that a CLI test never meets by accident but
 * a load loop can: see `RATE_LIMITS` and docs/MOCK.md. The window runs on the
 * wall clock, not the scaled mock clock, because its figures go back to the
 * client as real seconds (`X-RateLimit-Reset`, `Retry-After`).
 */
import type { Mode, Plan } from './accounts.js';

export const RATE_WINDOW_MS = 60_000;

/** Requests per 60-second window. Test keys are stricter than any live plan but Free. */
export const RATE_LIMITS: Readonly<Record<Plan, number>> = {
  Free: 300,
  Starter: 1200,
  Basic: 3000,
  Professional: 12000,
};
export const TEST_KEY_RATE_LIMIT = 300;
/** What answers without a valid key report (nothing is counted for them). */
export const ANONYMOUS_RATE_LIMIT = 300;

export function rateLimitFor(plan: Plan, mode: Mode): number {
  return mode === 'test' ? Math.min(TEST_KEY_RATE_LIMIT, RATE_LIMITS[plan]) : RATE_LIMITS[plan];
}

export interface RateState {
  limit: number;
  remaining: number;
  /** Whole seconds until one more request is allowed (0 when some remain). */
  resetSeconds: number;
}

/** A ring of the times of the last `limit` admitted requests. */
class Window {
  private readonly times: Float64Array;
  private head = 0;
  private count = 0;

  constructor(readonly limit: number) {
    this.times = new Float64Array(limit);
  }

  private expire(now: number): void {
    while (this.count > 0 && this.times[this.head]! <= now - RATE_WINDOW_MS) {
      this.head = (this.head + 1) % this.limit;
      this.count--;
    }
  }

  state(now: number): RateState {
    this.expire(now);
    const remaining = this.limit - this.count;
    const oldest = this.count > 0 ? this.times[this.head]! : now;
    return {
      limit: this.limit,
      remaining,
      resetSeconds:
        this.count === 0 ? 0 : Math.max(1, Math.ceil((oldest + RATE_WINDOW_MS - now) / 1000)),
    };
  }

  /** Records the request when allowed; `allowed: false` means the window is full. */
  take(now: number): { allowed: boolean; state: RateState } {
    this.expire(now);
    if (this.count >= this.limit) return { allowed: false, state: this.state(now) };
    this.times[(this.head + this.count) % this.limit] = now;
    this.count++;
    return { allowed: true, state: this.state(now) };
  }
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly wallNow: () => number = Date.now) {}

  private window(key: string, limit: number): Window {
    let w = this.windows.get(key);
    if (w === undefined || w.limit !== limit) {
      w = new Window(limit);
      this.windows.set(key, w);
    }
    return w;
  }

  take(key: string, limit: number): { allowed: boolean; state: RateState } {
    return this.window(key, limit).take(this.wallNow());
  }

  peek(key: string, limit: number): RateState {
    return this.window(key, limit).state(this.wallNow());
  }
}

export function rateLimitHeaders(state: RateState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.resetSeconds),
  };
}
