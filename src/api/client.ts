/**
 * The API client: auth, retries, typed errors and response metadata on top of
 * a transport. Usable as a library: it never prints, exits or reads argv;
 * anything worth telling the user goes through the `onRetry`/`onNotice` hooks.
 */
import {
  DEFAULT_BASE_URL,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  TEST_MODE_NOTICE,
} from './defaults.js';
import { checkApiKey } from './api-key.js';
import { type RequestDescription, describeRequest } from './describe-request.js';
import {
  ApiError,
  ConnectionError,
  InterruptedError,
  ResponseError,
  TimeoutError,
} from './errors.js';
import type { Page, PageRequest, PaginateOptions } from './paging/page-types.js';
import { paginate } from './paging/paginate.js';
import {
  type PrepareContext,
  type PreparedRequest,
  prepareRequest,
  userAgentFor,
} from './prepare-request.js';
import { RateLimiter } from './rate-limiter.js';
import { redactDeep, redactText, serverText } from './redact.js';
import { modeOf, rateLimitOf, usageHeaders } from './response-meta.js';
import {
  type RetryPolicy,
  backoffDelay,
  delayAfterResponse,
  isRetryableStatus,
  methodMayRetry,
} from './retry.js';
import { sleep as defaultSleep } from './sleep.js';
import { AttemptError, type RawResponse, type Transport, UndiciTransport } from './transport.js';
import type {
  ApiResponse,
  AuthMethod,
  ClientOptions,
  RequestOptions,
  RequestSpec,
  RetryInfo,
  SleepFn,
} from './types.js';

export class NewsClient {
  readonly baseUrl: string;
  readonly auth: AuthMethod;
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly #apiKey: string | undefined;
  readonly #policy: RetryPolicy;
  readonly #sleep: SleepFn;
  readonly #signal: AbortSignal | undefined;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;
  readonly #onNotice: ((message: string) => void) | undefined;
  readonly #onResponse: ClientOptions['onResponse'];
  readonly #transport: Transport;
  readonly #limiter: RateLimiter | undefined;
  #testNoticeShown = false;

  constructor(options: ClientOptions, transport?: Transport) {
    this.baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
    this.auth = options.auth ?? 'header';
    this.userAgent = userAgentFor(options.version);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    // Checked here, before anything is sent: a bad key is a local error, never retried.
    this.#apiKey = checkApiKey(options.apiKey);
    this.#policy = {
      retries: Math.max(0, options.retries ?? DEFAULT_RETRIES),
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
      maxDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    };
    this.#sleep = options.sleep ?? defaultSleep;
    this.#signal = options.signal;
    this.#onRetry = options.onRetry;
    this.#onNotice = options.onNotice;
    this.#onResponse = options.onResponse;
    this.#limiter =
      options.paceRateLimit === false ? undefined : new RateLimiter(this.#policy.now, this.#sleep);
    this.#transport =
      transport ??
      new UndiciTransport({
        connectTimeoutMs: this.connectTimeoutMs,
        timeoutMs: this.timeoutMs,
        maxResponseBytes: options.maxResponseBytes,
        env: options.env ?? process.env,
        dispatcher: options.dispatcher,
      });
  }

  /** Whether a key is configured (the key itself is never exposed). */
  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  /** `raw: true`: the body is the untouched response text (for `--raw`); errors still throw. */
  // Generic too, so `request<string>({ raw: true })` resolves to this overload.
  request<_T = string>(options: RequestOptions & { raw: true }): Promise<ApiResponse<string>>;
  request<T = unknown>(
    options: RequestOptions & { raw?: false | undefined },
  ): Promise<ApiResponse<T>>;
  async request<T>(options: RequestOptions): Promise<ApiResponse<T | string>> {
    const signal = combineSignals(this.#signal, options.signal);
    if (signal?.aborted) throw new InterruptedError('interrupted');
    const prepared = prepareRequest(options, this.#context());
    const host = hostOf(this.baseUrl);
    const { retries } = this.#policy;

    for (let attempt = 1; ; attempt++) {
      let raw: RawResponse;
      await this.#limiter?.beforeRequest(signal);
      if (signal?.aborted) throw new InterruptedError('interrupted');
      try {
        raw = await this.#transport.send(prepared, {
          ...(signal === undefined ? {} : { signal }),
          timeoutMs: this.timeoutMs,
        });
      } catch (err) {
        if (!(err instanceof AttemptError)) throw err;
        const { failure } = err;
        if (failure.kind === 'aborted') throw new InterruptedError('interrupted');
        const notSent = failure.kind === 'network' && failure.failure.notSent;
        if (attempt > retries || !methodMayRetry(options.method, notSent)) {
          throw this.#attemptError(err, host, attempt);
        }
        const reason = failure.kind === 'timeout' ? 'timeout' : failure.failure.reason;
        await this.#wait(
          attempt,
          backoffDelay(attempt, this.#policy),
          reason,
          undefined,
          signal,
          options.onRetry,
        );
        continue;
      }

      this.#noticeMode(raw.headers);
      if (raw.status >= 200 && raw.status < 300) {
        // Error answers are paced by the retry policy, which reads the same headers.
        this.#limiter?.observe(raw.headers);
        const response = this.#success<T>(raw, attempt, options.raw === true);
        this.#onResponse?.(response, options);
        return response;
      }
      const error = this.#apiError(raw);
      if (
        attempt > retries ||
        !isRetryableStatus(raw.status) ||
        !methodMayRetry(options.method, false)
      ) {
        throw error;
      }
      const decision = delayAfterResponse(attempt, raw.headers, this.#policy);
      if (decision.kind === 'give-up') {
        error.hint ??= `the server asked to wait ${formatSeconds(decision.askedMs)}, longer than the ${formatSeconds(this.#policy.maxDelayMs)} this client waits; try again later`;
        throw error;
      }
      await this.#wait(
        attempt,
        decision.delayMs,
        `HTTP ${raw.status}`,
        raw.status,
        signal,
        options.onRetry,
      );
    }
  }

  /** The exact URL and headers (auth included) of a request, for the stream transports. */
  prepare(spec: RequestSpec): PreparedRequest {
    return prepareRequest(spec, this.#context());
  }

  /** What `--dry-run` prints: nothing is sent. */
  describeRequest(spec: RequestSpec): RequestDescription {
    return describeRequest(spec, this.#context());
  }

  /** Pages of a list endpoint as an async iterator; see `paginate`. */
  paginate<R = Record<string, unknown>>(
    request: PageRequest,
    options: PaginateOptions = {},
  ): AsyncGenerator<Page<R>, void, undefined> {
    return paginate<R>(this, request, options);
  }

  /** Frees the keep-alive sockets; the client must not be used afterwards. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  #context(): PrepareContext {
    return {
      baseUrl: this.baseUrl,
      auth: this.auth,
      apiKey: this.#apiKey,
      userAgent: this.userAgent,
    };
  }

  async #wait(
    attempt: number,
    delayMs: number,
    reason: string,
    status: number | undefined,
    signal: AbortSignal | undefined,
    onRetry: ((info: RetryInfo) => void) | undefined,
  ): Promise<void> {
    const info: RetryInfo = { attempt, delayMs, reason };
    if (status !== undefined) info.status = status;
    this.#onRetry?.(info);
    onRetry?.(info);
    await this.#sleep(delayMs, signal);
    if (signal?.aborted) throw new InterruptedError('interrupted');
  }

  #noticeMode(headers: Record<string, string>): void {
    if (this.#testNoticeShown || modeOf(headers) !== 'test') return;
    this.#testNoticeShown = true;
    this.#onNotice?.(TEST_MODE_NOTICE);
  }

  #success<T>(raw: RawResponse, attempts: number, wantRaw: boolean): ApiResponse<T | string> {
    let body: T | string;
    if (wantRaw) {
      body = raw.text;
    } else if (raw.text.trim() === '') {
      // 204 No Content and friends: nothing to parse.
      body = null as T;
    } else {
      try {
        body = JSON.parse(raw.text) as T;
      } catch {
        const type = serverText(raw.headers['content-type'] ?? 'no content-type', this.#apiKey, 60);
        throw new ResponseError(
          `the server answered HTTP ${raw.status} with a body that is not JSON (${type}): ${this.#snippet(raw.text)}`,
          { hint: 'check --base-url: it should point at the API root' },
        );
      }
    }
    const response: ApiResponse<T | string> = {
      status: raw.status,
      headers: raw.headers,
      body,
      usage: usageHeaders(raw.headers),
      attempts,
    };
    const requestId = raw.headers['x-request-id'] ?? requestIdOf(body);
    if (requestId !== undefined) response.requestId = requestId;
    const mode = modeOf(raw.headers);
    if (mode !== undefined) response.mode = mode;
    const rateLimit = rateLimitOf(raw.headers, this.#policy.now());
    if (rateLimit !== undefined) response.rateLimit = rateLimit;
    return response;
  }

  #apiError(raw: RawResponse): ApiError {
    let parsed: unknown;
    try {
      parsed = raw.text.trim() === '' ? undefined : (JSON.parse(raw.text) as unknown);
    } catch {
      parsed = undefined;
    }
    // Redacted before anything is picked or cut from it: a key the server
    // echoes in a message, a code or a request id never reaches the error.
    parsed = redactDeep(parsed, this.#apiKey);
    const headers = { ...raw.headers };
    for (const name of ['x-request-id', 'retry-after']) {
      const value = headers[name];
      if (value !== undefined) headers[name] = redactText(value, this.#apiKey);
    }
    const statusLine = `HTTP ${raw.status}${raw.statusText === '' ? '' : ` ${raw.statusText}`}`;
    let body: unknown = parsed;
    if (!hasErrorList(parsed)) {
      // Not the documented envelope: pick the best message we can, never an HTML page.
      const loose = looseMessage(parsed);
      if (loose !== undefined) body = loose;
      else if (parsed === undefined && raw.text.trim() !== '' && !looksLikeMarkup(raw.text)) {
        body = `${statusLine}: ${this.#snippet(raw.text)}`;
      } else {
        body = `${statusLine} (${parsed === undefined && raw.text.trim() !== '' ? 'non-JSON response' : 'no error details'})`;
      }
    }
    return ApiError.from(raw.status, body, headers);
  }

  #attemptError(err: AttemptError, host: string, attempts: number): Error {
    const { failure } = err;
    const after = attempts > 1 ? ` after ${attempts} attempts` : '';
    if (failure.kind === 'timeout') {
      // No hint: the CLI's names the flag that sets the timeout (exit-codes.ts networkHint).
      return new TimeoutError(
        `no complete response from ${host} within ${formatSeconds(failure.timeoutMs)}${after}`,
      );
    }
    if (failure.kind === 'network') {
      const { reason } = failure.failure;
      if (failure.failure.timeout && failure.failure.connect) {
        return new TimeoutError(
          `cannot connect to ${host} within ${formatSeconds(this.connectTimeoutMs)}${after}`,
          { cause: safeCause(failure.cause, this.#apiKey) },
        );
      }
      const message = failure.failure.connect
        ? `cannot connect to ${host} (${redactText(reason, this.#apiKey)})${after}`
        : `connection to ${host} failed (${redactText(reason, this.#apiKey)})${after}`;
      return new ConnectionError(message, {
        hint: 'check the network, a proxy (HTTPS_PROXY) and --base-url',
        cause: safeCause(failure.cause, this.#apiKey),
      });
    }
    return new InterruptedError('interrupted');
  }

  /** A short, redacted piece of a body that is not JSON: redacted first, then cut. */
  #snippet(text: string): string {
    return serverText(text, this.#apiKey, SNIPPET_CHARS);
  }
}

/** How much of a non-JSON body an error quotes. */
const SNIPPET_CHARS = 120;

function combineSignals(
  a: AbortSignal | undefined,
  b: AbortSignal | undefined,
): AbortSignal | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return AbortSignal.any([a, b]);
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  // Below a second, to the millisecond: a 1 ms timeout is not "0.0 s".
  if (s < 1) return `${Number(s.toFixed(3))} s`;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

function hasErrorList(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as { errors?: unknown }).errors)
  );
}

function looseMessage(body: unknown): string | undefined {
  if (typeof body === 'string' && body.trim() !== '') return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'error', 'detail']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

function looksLikeMarkup(text: string): boolean {
  return /^\s*</.test(text);
}

function requestIdOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const id = (body as { request_id?: unknown }).request_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Keeps the original error for debugging unless its message would leak the key. */
function safeCause(cause: unknown, apiKey: string | undefined): unknown {
  if (apiKey === undefined || !(cause instanceof Error)) return cause;
  return cause.message.includes(apiKey) ? new Error(redactText(cause.message, apiKey)) : cause;
}

/** Creates a client; see `ClientOptions` for the defaults. */
export function createClient(options: ClientOptions): NewsClient {
  return new NewsClient(options);
}
