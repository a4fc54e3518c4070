/**
 * Browser access as the spec's Authentication rule 7 describes it: every
 * response allows any origin, and a preflight is answered without a key and
 * may be cached for a day.
 */
import type { IncomingHttpHeaders } from 'node:http';

export const CORS_MAX_AGE_SECONDS = 86400;
const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS =
  'Accept, Authorization, Content-Type, X-API-Key, X-Mock-Scenario, Last-Event-ID';
/** So browser code can read the usage headers, not only the safelisted ones. */
const EXPOSED_HEADERS = [
  'x-service-mode',
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-points-remaining',
  'x-points-used',
  'retry-after',
].join(', ');

export function corsHeaders(): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED_HEADERS,
  };
}

/** The extra headers of a 204 preflight answer; echoes requested headers so custom ones pass too. */
export function preflightHeaders(request: IncomingHttpHeaders): Record<string, string> {
  const requested = request['access-control-request-headers'];
  return {
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': requested?.trim() ? requested : ALLOWED_HEADERS,
    'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
  };
}
