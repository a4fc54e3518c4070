/**
 * When to retry and how long to wait. Pure functions, so the policy is tested
 * by tables and the client loop stays short.
 */
import { parseRetryAfter } from './errors.js';
import { type HeaderMap, rateLimitOf } from './response-meta.js';
import type { HttpMethod } from './types.js';

export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  random: () => number;
  now: () => number;
}

/** Statuses that say "try again": timeouts, rate limits and the gateway family. */
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * GET and the read-only search POSTs are safe to repeat. PATCH and DELETE
 * change things, so they are repeated only when the request provably never
 * reached the server (connection refused, DNS failure, connect timeout).
 */
export function methodMayRetry(method: HttpMethod, provablyNotSent: boolean): boolean {
  if (method === 'PATCH' || method === 'DELETE') return provablyNotSent;
  return true;
}

/** Exponential backoff with full jitter: uniform in [0, min(cap, base · 2^(n-1))). */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(policy.random() * ceiling);
}

export type DelayDecision =
  | { kind: 'wait'; delayMs: number }
  /** The server asked for a longer wait than the cap: better a clear error than a silent hang. */
  | { kind: 'give-up'; askedMs: number };

/** The wait before retrying after an error response, honouring Retry-After and the rate-limit window. */
export function delayAfterResponse(
  retry: number,
  headers: HeaderMap,
  policy: RetryPolicy,
): DelayDecision {
  const now = policy.now();
  const retryAfterS = parseRetryAfter(headers['retry-after'], now);
  let askedMs = retryAfterS === undefined ? undefined : Math.ceil(retryAfterS * 1000);
  const rate = rateLimitOf(headers, now);
  if (rate?.remaining === 0 && rate.resetAt !== undefined) {
    const untilReset = Math.max(0, rate.resetAt.getTime() - now);
    askedMs = Math.max(askedMs ?? 0, untilReset);
  }
  if (askedMs === undefined) return { kind: 'wait', delayMs: backoffDelay(retry, policy) };
  if (askedMs > policy.maxDelayMs) return { kind: 'give-up', askedMs };
  return { kind: 'wait', delayMs: askedMs };
}
