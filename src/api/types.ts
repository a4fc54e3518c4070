/** Public types of the API client. Type-only, so importing them costs nothing. */
import type { Dispatcher } from 'undici';

export type AuthMethod = 'header' | 'bearer' | 'query';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type ServiceMode = 'live' | 'test';

/** A query-string value; lists become the comma-separated string the API expects. */
export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number)[];
export type Query = Readonly<Record<string, QueryValue>>;

/** What to send, without the transport concerns (auth, base URL) the client adds. */
export interface RequestSpec {
  method: HttpMethod;
  /** Path below the base URL, e.g. `/v1/news/everything`. */
  path: string;
  query?: Query | undefined;
  /** Sent as JSON. */
  body?: unknown;
}

export interface RequestOptions extends RequestSpec {
  signal?: AbortSignal | undefined;
  /** Return the untouched response text instead of parsed JSON (for `--raw`). */
  raw?: boolean | undefined;
  /** Told before each retry of this request, besides the client's `onRetry` (paging adapts to 429s). */
  onRetry?: ((info: RetryInfo) => void) | undefined;
}

/** Parsed `X-RateLimit-*` headers; absent fields were not sent. */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** The raw `X-RateLimit-Reset` value. */
  reset?: number;
  /** When the window resets, read as epoch seconds when large, else as seconds from now. */
  resetAt?: Date;
}

export interface ApiResponse<T> {
  status: number;
  /** Lower-case header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: T;
  requestId?: string;
  mode?: ServiceMode;
  rateLimit?: RateLimitInfo;
  /**
   * Every `x-ratelimit-*`, `x-points-*` and `x-request-id` header verbatim,
   * for `-v` to print without knowing which ones the server sends.
   */
  usage: Record<string, string>;
  /** How many attempts it took (1 = no retry). */
  attempts: number;
}

export interface RetryInfo {
  /** The retry about to happen, from 1. */
  attempt: number;
  delayMs: number;
  /** Short and human, e.g. `HTTP 502`, `connection refused`, `timeout`. */
  reason: string;
  status?: number;
}

export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface ClientOptions {
  /** Goes into `news-cli/<version> (node <process.version>)`. */
  version: string;
  apiKey?: string | undefined;
  /** Default `header`. */
  auth?: AuthMethod | undefined;
  /** Default `https://api.apitube.io`. */
  baseUrl?: string | undefined;
  /** TCP/TLS connect timeout; default 10 000 ms. */
  connectTimeoutMs?: number | undefined;
  /** Whole attempt, from sending to the last body byte; default 60 000 ms (the spec asks for > 30 s). */
  timeoutMs?: number | undefined;
  /** The largest response body read, in bytes; default 64 MB (DEFAULT_MAX_RESPONSE_BYTES). Larger ends in a ResponseError. */
  maxResponseBytes?: number | undefined;
  /** Retries after the first attempt; default 3, 0 disables. */
  retries?: number | undefined;
  /** First backoff step; default 1 000 ms, doubling per retry (full jitter). */
  retryBaseDelayMs?: number | undefined;
  /** Longest single wait; default 30 000 ms. A server asking for longer makes the client give up. */
  maxRetryDelayMs?: number | undefined;
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /** Every successful response, with the request that got it (the CLI meters points with it). */
  onResponse?: ((response: ApiResponse<unknown>, request: RequestSpec) => void) | undefined;
  /** Messages worth telling the user once (test mode). */
  onNotice?: ((message: string) => void) | undefined;
  /** Cancels every request of this client; the CLI wires SIGINT to it. */
  signal?: AbortSignal | undefined;
  /** Proxy variables are read from here; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * Send through this undici dispatcher instead of one of our own (the CLI's
   * in-process mock); the client does not close it.
   */
  dispatcher?: Dispatcher | undefined;
  /**
   * Pace requests from the X-RateLimit-* headers so the limit is not hit
   * (src/api/rate-limiter.ts); default true.
   */
  paceRateLimit?: boolean | undefined;
  /** Injectable for tests. */
  sleep?: SleepFn | undefined;
  /** Injectable for tests; must return [0, 1). */
  random?: (() => number) | undefined;
  /** Injectable for tests (Retry-After dates, rate-limit resets). */
  now?: (() => number) | undefined;
}
