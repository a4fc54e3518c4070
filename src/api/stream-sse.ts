/**
 * The server-sent events transport: a GET over undici, the framing by
 * eventsource-parser (never by hand). Heartbeat comments carry no item but
 * count as activity. Loaded with import() by the stream session, so undici
 * and the parser stay off the CLI's start-up path.
 */
import type { Dispatcher } from 'undici';
import { type EventSourceMessage, createParser } from 'eventsource-parser';
import { ApiError, type ApiErrorEnvelope, ResponseError } from './errors.js';
import { normaliseHeaders } from './response-meta.js';
import type {
  StreamConnectRequest,
  StreamItem,
  StreamTransport,
  StreamTransportOptions,
} from './stream-types.js';
import { createDispatcher } from './transport.js';
import { STREAM_PROTOCOL } from '../params/stream-params.js';

type Undici = typeof import('undici');

export class SseTransport implements StreamTransport {
  readonly name = 'sse';
  #loading: Promise<{ undici: Undici; dispatcher: Dispatcher }> | undefined;

  constructor(private readonly options: StreamTransportOptions) {}

  async *connect(request: StreamConnectRequest): AsyncGenerator<StreamItem[]> {
    const { undici, dispatcher } = await this.#load();
    const headers: Record<string, string> = {
      ...request.headers,
      accept: 'text/event-stream',
      'cache-control': 'no-cache',
    };
    if (request.lastEventId !== undefined) headers['last-event-id'] = request.lastEventId;
    const response = await undici.request(request.url, {
      method: 'GET',
      headers,
      dispatcher,
      signal: request.signal,
    });
    const responseHeaders = normaliseHeaders(response.headers);
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const text = await response.body.text();
      throw ApiError.from(response.statusCode, parseJson(text) ?? text, responseHeaders);
    }
    const type = responseHeaders['content-type'] ?? '';
    if (!type.startsWith('text/event-stream')) {
      response.body.destroy();
      throw new ResponseError(
        `the stream answered HTTP ${response.statusCode} with ${type || 'no content type'}, not text/event-stream`,
        { hint: 'check --base-url: it should point at the API root' },
      );
    }

    let pending: StreamItem[] = [
      {
        kind: 'open',
        sessionId: responseHeaders[STREAM_PROTOCOL.sessionHeader],
        mode: responseHeaders['x-service-mode'],
      },
    ];
    const parser = createParser({
      onEvent: (event) => {
        const item = itemOf(event);
        if (item !== undefined) pending.push(item);
      },
      onRetry: (ms) => pending.push({ kind: 'retry', ms }),
    });
    const body = response.body;
    const decoder = new TextDecoder();
    try {
      yield pending;
      pending = [];
      for await (const chunk of body as AsyncIterable<Uint8Array>) {
        request.onActivity();
        parser.feed(decoder.decode(chunk, { stream: true }));
        if (pending.length > 0) {
          const items = pending;
          pending = [];
          yield items;
        }
      }
    } finally {
      // The consumer stopped (a limit, Ctrl-C) or the stream failed: let the socket go.
      if (!body.destroyed) body.destroy();
    }
  }

  async close(): Promise<void> {
    const loading = this.#loading;
    this.#loading = undefined;
    if (loading !== undefined) await (await loading).dispatcher.destroy();
  }

  #load(): Promise<{ undici: Undici; dispatcher: Dispatcher }> {
    this.#loading ??= (async () => {
      const undici = await import('undici');
      const { connectTimeoutMs, env } = this.options;
      const agentOptions = {
        connect: { timeout: connectTimeoutMs },
        headersTimeout: connectTimeoutMs,
        // The stream is endless by design: the session's idle watchdog guards the body.
        bodyTimeout: 0,
      };
      const dispatcher = createDispatcher(undici, agentOptions, env, connectTimeoutMs);
      return { undici, dispatcher };
    })();
    return this.#loading;
  }
}

function itemOf(event: EventSourceMessage): StreamItem | undefined {
  if (event.event === 'article') {
    const article = parseJson(event.data);
    if (typeof article !== 'object' || article === null || Array.isArray(article)) return undefined;
    const record = article as Record<string, unknown>;
    const id = event.id ?? (record['id'] === undefined ? undefined : String(record['id']));
    if (id === undefined || id === '') return undefined;
    return {
      kind: 'article',
      id,
      article: record,
      ...(event.data.includes('\n') ? {} : { json: event.data }),
    };
  }
  if (event.event === 'error') {
    const parsed = parseJson(event.data);
    return { kind: 'error', envelope: envelopeOf(parsed), text: event.data };
  }
  return undefined;
}

export function envelopeOf(value: unknown): ApiErrorEnvelope | undefined {
  return typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as ApiErrorEnvelope).errors)
    ? (value as ApiErrorEnvelope)
    : undefined;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
