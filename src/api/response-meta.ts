/**
 * What the response headers say about the request beyond its body: the key's
 * mode, the request id, rate-limit and points counters. Read here once so the
 * client, the retry policy and `-v` agree.
 */
import type { RateLimitInfo, ServiceMode } from './types.js';

export type HeaderMap = Readonly<Record<string, string>>;

/** Normalises undici's header object: lower-case names, repeated values joined. */
export function normaliseHeaders(
  raw: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The specification names `x-service-mode`; the provider's docs say `X-Apitube-Mode`. Accept both. */
export function modeOf(headers: HeaderMap): ServiceMode | undefined {
  const value = (headers['x-service-mode'] ?? headers['x-apitube-mode'])?.trim().toLowerCase();
  return value === 'live' || value === 'test' ? value : undefined;
}

export function usageHeaders(headers: HeaderMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      name.startsWith('x-ratelimit-') ||
      name.startsWith('x-points-') ||
      name === 'x-request-id'
    ) {
      out[name] = value;
    }
  }
  return out;
}

/**
 * `X-RateLimit-Reset` comes as epoch seconds from some servers and as seconds
 * from now from others; a value below ten years of seconds cannot be an epoch
 * time we will meet, so it is read as a delta.
 */
const DELTA_LIMIT_S = 10 * 365 * 24 * 3600;

export function rateLimitOf(headers: HeaderMap, now: number): RateLimitInfo | undefined {
  const info: RateLimitInfo = {};
  const limit = toNumber(headers['x-ratelimit-limit']);
  const remaining = toNumber(headers['x-ratelimit-remaining']);
  const reset = toNumber(headers['x-ratelimit-reset']);
  if (limit !== undefined) info.limit = limit;
  if (remaining !== undefined) info.remaining = remaining;
  if (reset !== undefined) {
    info.reset = reset;
    info.resetAt = new Date(reset < DELTA_LIMIT_S ? now + reset * 1000 : reset * 1000);
  }
  return Object.keys(info).length === 0 ? undefined : info;
}

function toNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
