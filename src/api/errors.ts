/**
 * Typed errors of the client. `src/cli/exit-codes.ts` is the one place that maps
 * them to exit codes and `error: … / hint: …` lines.
 */
import { NewsError } from '../params/errors.js';
import { serverText } from './redact.js';

// Declared in params (the lowest layer, which raises UsageError for bad values); the
// client's users get them here with the rest.
export { NewsError, UsageError } from '../params/errors.js';

/** One error object of the API's error envelope. */
export interface ApiErrorDetail {
  status?: number;
  code?: string;
  message?: string;
  links?: { about?: string };
  timestamp?: string;
}

export interface ApiErrorEnvelope {
  status?: string;
  request_id?: string | null;
  errors?: ApiErrorDetail[];
}

/** The server answered with an error status. */
export class ApiError extends NewsError {
  override name = 'ApiError';
  readonly status: number;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly details: ApiErrorDetail[];
  /** Seconds the server asked us to wait (Retry-After), when it said. */
  readonly retryAfter: number | undefined;

  constructor(
    status: number,
    message: string,
    extra: {
      code?: string | undefined;
      requestId?: string | undefined;
      details?: ApiErrorDetail[];
      retryAfter?: number | undefined;
      hint?: string | undefined;
    } = {},
  ) {
    super(message, { hint: extra.hint });
    this.status = status;
    this.code = extra.code;
    this.requestId = extra.requestId;
    this.details = extra.details ?? [];
    this.retryAfter = extra.retryAfter;
  }

  /** Builds the typed subclass for a status and an (optional) error envelope. */
  static from(
    status: number,
    body: unknown,
    headers: Headers | Record<string, string> = {},
  ): ApiError {
    const get = (name: string): string | undefined =>
      headers instanceof Headers
        ? (headers.get(name) ?? undefined)
        : Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
    const envelope = isEnvelope(body) ? body : undefined;
    // A hostile or broken server may put anything in these fields: only
    // strings are taken (an object would print as "[object Object]").
    const first = asRecord(envelope?.errors?.[0]);
    const requestId = stringOr(envelope?.request_id, 100) ?? stringOr(get('x-request-id'), 100);
    const message =
      stringOr(first?.['message']) ??
      (typeof body === 'string' && body.trim() !== ''
        ? serverText(body, undefined, 200)
        : `HTTP ${status}`);
    const extra = {
      code: stringOr(first?.['code'], 40),
      requestId,
      details: (envelope?.errors ?? []).filter(
        (d): d is ApiErrorDetail => typeof d === 'object' && d !== null && !Array.isArray(d),
      ),
      retryAfter: parseRetryAfter(get('retry-after')),
    };
    const Kind = errorClassFor(status);
    return new Kind(status, message, extra);
  }
}

export class AuthError extends ApiError {
  override name = 'AuthError';
}
export class PermissionError extends ApiError {
  override name = 'PermissionError';
}
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
export class PointsError extends ApiError {
  override name = 'PointsError';
}
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
}
export class ServerError extends ApiError {
  override name = 'ServerError';
}
export class ValidationError extends ApiError {
  override name = 'ValidationError';
}

function errorClassFor(status: number): typeof ApiError {
  if (status === 401) return AuthError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 402) return PointsError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  if (status === 400 || status === 422) return ValidationError;
  return ApiError;
}

/** The network failed (refused, reset, DNS) even after retries. */
export class ConnectionError extends NewsError {
  override name = 'ConnectionError';
}

/** No answer in time, even after retries. */
export class TimeoutError extends NewsError {
  override name = 'TimeoutError';
}

/** The server answered 2xx with something that is not what the API promises. */
export class ResponseError extends NewsError {
  override name = 'ResponseError';
}

/** The user pressed Ctrl-C (or the process got SIGTERM). */
export class InterruptedError extends NewsError {
  override name = 'InterruptedError';
}

/** A non-empty string field, on one line and cut to `max` (after the caller redacted it). */
function stringOr(value: unknown, max = 500): string | undefined {
  return typeof value === 'string' && value.trim() !== ''
    ? serverText(value, undefined, max)
    : undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function isEnvelope(body: unknown): body is ApiErrorEnvelope {
  return (
    typeof body === 'object' && body !== null && Array.isArray((body as ApiErrorEnvelope).errors)
  );
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
