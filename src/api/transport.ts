/**
 * One HTTP attempt over undici with keep-alive. undici costs ~170 ms to
 * import, so it is loaded on the first request, never at module load: the
 * CLI's `--help` must not pay for it.
 */
import type { Dispatcher } from 'undici';
import { DEFAULT_MAX_RESPONSE_BYTES } from './defaults.js';
import { ConnectionError, NewsError, ResponseError, UsageError } from './errors.js';
import type { NetworkFailure } from './network-errors.js';
import { classifyNetworkError } from './network-errors.js';
import type { PreparedRequest } from './prepare-request.js';
import { normaliseHeaders } from './response-meta.js';

export interface RawResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  text: string;
}

/** Why an attempt produced no response. */
export type AttemptFailure =
  | { kind: 'aborted' }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'network'; failure: NetworkFailure; cause: unknown };

export class AttemptError extends Error {
  override name = 'AttemptError';
  constructor(readonly failure: AttemptFailure) {
    super(failure.kind);
  }
}

export interface Transport {
  /** Resolves with any status; rejects with AttemptError (or ConnectionError for a bad proxy setting). */
  send(
    request: PreparedRequest,
    options: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<RawResponse>;
  close(): Promise<void>;
}

export interface TransportOptions {
  connectTimeoutMs: number;
  timeoutMs: number;
  /** A response body longer than this ends the request with a ResponseError (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number | undefined;
  env: Readonly<Record<string, string | undefined>>;
  /** Send through this dispatcher (not closed here) instead of one made from the settings. */
  dispatcher?: Dispatcher | undefined;
}

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

/**
 * The proxy variables, in any case (`https_proxy`, `HTTPS_PROXY`, `Https_Proxy`);
 * lower case wins, as in curl. Undefined when none is set, so the plain Agent is used.
 */
export function proxySettings(
  env: Readonly<Record<string, string | undefined>>,
): ProxySettings | undefined {
  const pick = (name: string): string | undefined => {
    const lower = env[name.toLowerCase()];
    if (lower !== undefined && lower !== '') return lower;
    for (const [key, value] of Object.entries(env)) {
      if (key.toLowerCase() === name.toLowerCase() && value !== undefined && value !== '')
        return value;
    }
    return undefined;
  };
  const settings: ProxySettings = {};
  const httpProxy = pick('http_proxy');
  const httpsProxy = pick('https_proxy');
  const noProxy = pick('no_proxy');
  if (httpProxy !== undefined) settings.httpProxy = httpProxy;
  if (httpsProxy !== undefined) settings.httpsProxy = httpsProxy;
  if (noProxy !== undefined) settings.noProxy = noProxy;
  return Object.keys(settings).length === 0 ? undefined : settings;
}

export type DispatcherKind = 'Agent' | 'EnvHttpProxyAgent';

export function dispatcherKindFor(
  env: Readonly<Record<string, string | undefined>>,
): DispatcherKind {
  return proxySettings(env) === undefined ? 'Agent' : 'EnvHttpProxyAgent';
}

export class UndiciTransport implements Transport {
  #loading:
    | Promise<{
        dispatcher: Dispatcher;
        statusTexts: Record<number, string | undefined>;
      }>
    | undefined;
  #dispatcher: Dispatcher | undefined;

  constructor(private readonly options: TransportOptions) {}

  /** Which dispatcher this transport uses (for tests and `-v`). */
  get dispatcherKind(): DispatcherKind {
    return dispatcherKindFor(this.options.env);
  }

  async send(
    request: PreparedRequest,
    { signal, timeoutMs }: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<RawResponse> {
    if (signal?.aborted) throw new AttemptError({ kind: 'aborted' });
    const { dispatcher, statusTexts } = await this.#load();
    // One controller per attempt: the caller's signal and our deadline both end it,
    // and which one fired decides between InterruptedError and TimeoutError.
    const attempt = new AbortController();
    let timedOut = false;
    const onAbort = (): void => attempt.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort(new Error('attempt deadline'));
    }, timeoutMs);
    try {
      // What undici.request(url, {dispatcher}) does, without loading undici for an injected dispatcher.
      const target = new URL(request.url);
      const response = await dispatcher.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.bodyText ?? null,
        signal: attempt.signal,
      });
      const text = await readCapped(
        response.body,
        response.headers['content-length'],
        this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        hostOf(request.url),
      );
      return {
        status: response.statusCode,
        statusText: statusTexts[response.statusCode] ?? response.statusText ?? '',
        headers: normaliseHeaders(response.headers),
        text,
      };
    } catch (err) {
      // Our own verdicts (a body over the cap) are final: no retry, no reclassifying.
      if (err instanceof NewsError) throw err;
      if (timedOut) throw new AttemptError({ kind: 'timeout', timeoutMs });
      if (signal?.aborted) throw new AttemptError({ kind: 'aborted' });
      if (isInvalidArgument(err)) {
        // undici refused to build the request (a header it cannot send): a local
        // problem that no retry can fix, and not the network's fault.
        throw new UsageError(`cannot send the request: ${(err as Error).message}`);
      }
      throw new AttemptError({ kind: 'network', failure: classifyNetworkError(err), cause: err });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async close(): Promise<void> {
    const dispatcher = this.#dispatcher;
    this.#loading = undefined;
    this.#dispatcher = undefined;
    // destroy, not close: a stuck keep-alive socket must not hold the process open.
    if (dispatcher !== undefined) await dispatcher.destroy();
  }

  #load(): Promise<{
    dispatcher: Dispatcher;
    statusTexts: Record<number, string | undefined>;
  }> {
    this.#loading ??= (async () => {
      // An injected dispatcher (the in-process mock) gives its own reason phrases.
      const injected = this.options.dispatcher;
      if (injected !== undefined) return { dispatcher: injected, statusTexts: {} };
      const [undici, http] = await Promise.all([import('undici'), import('node:http')]);
      const { connectTimeoutMs, timeoutMs } = this.options;
      const agentOptions = {
        connect: { timeout: connectTimeoutMs },
        // Our own per-attempt deadline governs; these only stop undici's 300 s defaults from cutting in first.
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        keepAliveTimeout: 10_000,
      };
      const dispatcher = createDispatcher(undici, agentOptions, this.options.env, connectTimeoutMs);
      // Only a dispatcher made here is ours to destroy.
      this.#dispatcher = dispatcher;
      return { dispatcher, statusTexts: http.STATUS_CODES };
    })();
    return this.#loading;
  }
}

/**
 * The body as text, refusing one longer than `max` bytes: a server that
 * never stops sending (or announces gigabytes) would otherwise be read
 * until memory runs out. The socket is destroyed at the cap.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => unknown },
  contentLength: string | string[] | undefined,
  max: number,
  host: string,
): Promise<string> {
  const tooLarge = (): ResponseError =>
    new ResponseError(
      `the response from ${host} is larger than ${formatBytes(max)}; stopped reading it`,
      {
        hint: 'if such an answer is expected, raise the limit with --max-response-mb N (or NEWS_MAX_RESPONSE_MB)',
      },
    );
  const announced = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
  if (Number.isFinite(announced) && announced > max) {
    body.destroy?.();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > max) {
      body.destroy?.();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** `64 MB`, `1.5 MB`, `900 KB`: the limit as a user set it (MB = 2^20 bytes). */
export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : Number(mb.toFixed(2))} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

function isInvalidArgument(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    ((err as { code?: unknown }).code === 'UND_ERR_INVALID_ARG' ||
      (err as { code?: unknown }).code === 'ERR_INVALID_URL')
  );
}

/**
 * The undici dispatcher for our requests and streams: a plain Agent, or an
 * EnvHttpProxyAgent when HTTP(S)_PROXY is set (from our env, not process.env).
 * A bad proxy URL is a ConnectionError that does not repeat the value.
 */
export function createDispatcher(
  undici: typeof import('undici'),
  agentOptions: ConstructorParameters<typeof import('undici').Agent>[0],
  env: Readonly<Record<string, string | undefined>>,
  connectTimeoutMs: number,
): Dispatcher {
  const proxy = proxySettings(env);
  try {
    return proxy === undefined
      ? new undici.Agent(agentOptions)
      : new undici.EnvHttpProxyAgent({
          ...agentOptions,
          // Explicit values (empty string = none) so undici does not read process.env itself.
          httpProxy: proxy.httpProxy ?? '',
          httpsProxy: proxy.httpsProxy ?? '',
          noProxy: proxy.noProxy ?? '',
          proxyTls: { timeout: connectTimeoutMs },
        });
  } catch (err) {
    // The variable's value is not repeated: proxy URLs often carry credentials.
    throw new ConnectionError('invalid proxy URL in HTTP_PROXY or HTTPS_PROXY', {
      hint: 'proxy URLs look like http://host:port',
      cause: err,
    });
  }
}
