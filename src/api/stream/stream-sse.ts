/**
 * The server-sent events transport: a GET over undici, the framing by
 * eventsource-parser (never by hand). Heartbeat comments carry no item but
 * count as activity. Loaded with import() by the stream session, so undici
 * and the parser stay off the CLI's start-up path.
 */
import type { Dispatcher } from 'undici';
import { type EventSourceMessage, createParser } from 'eventsource-parser';
import { ApiError, type ApiErrorEnvelope, ResponseError } from '../errors.js';
import { normaliseHeaders } from '../response-meta.js';
import type {
  StreamConnectRequest,
  StreamItem,
  StreamTransport,
  StreamTransportOptions,
} from './stream-types.js';
import { createDispatcher } from '../transport.js';
import { STREAM_PROTOCOL } from '../../params/stream-params.js';

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
    const positions = new DatalessIds();
    try {
      yield pending;
      pending = [];
      for await (const chunk of body as AsyncIterable<Uint8Array>) {
        request.onActivity();
        let text = decoder.decode(chunk, { stream: true });
        // What else already arrived goes into the same batch (a replay comes
        // faster than it is written): one write and one flush for all of it.
        for (let more: Uint8Array | null; text.length < COALESCE_CHARS; ) {
          more = body.read() as Uint8Array | null;
          if (more === null) break;
          text += decoder.decode(more, { stream: true });
        }
        // Before the chunk's articles: a position never moves past one not yet handed out.
        for (const id of positions.feed(text)) pending.push({ kind: 'position', id });
        parser.feed(text);
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

/** At most this much text read at once into one batch. */
const COALESCE_CHARS = 1024 * 1024;

/** Longest line start kept while a line is incomplete: enough for any `id:` field. */
const LINE_HEAD = 1024;

/**
 * The ids of events without data, which set a browser's last event id and
 * dispatch nothing: eventsource-parser 3 drops them (its v4 reports them,
 * but needs Node 22.12). Reads only that, by the specification's line rules
 * (CR, LF or CRLF; `field: value`; a blank line ends the event), so the
 * stream's opening position (`id: 42` and a blank line) is known.
 */
export class DatalessIds {
  #head = '';
  #id: string | undefined;
  #data = false;
  /** The last chunk ended with CR: a LF opening the next one ends the same line. */
  #afterCr = false;

  feed(text: string): string[] {
    const out: string[] = [];
    let start = this.#afterCr && text.startsWith('\n') ? 1 : 0;
    this.#afterCr = false;
    if (!text.includes('\r')) {
      // The usual case, LF only: from line end to line end natively, not character by character.
      for (let i = text.indexOf('\n', start); i !== -1; i = text.indexOf('\n', start)) {
        this.#line(this.#head + text.slice(start, Math.min(i, start + LINE_HEAD)), out);
        this.#head = '';
        start = i + 1;
      }
      if (this.#head.length < LINE_HEAD)
        this.#head += text.slice(start, start + LINE_HEAD - this.#head.length);
      return out;
    }
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.#line(this.#head + text.slice(start, i), out);
      this.#head = '';
      if (c === 13) {
        if (i + 1 === text.length) this.#afterCr = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    // Only a line's start matters (its field name, an id's value): a long data line is not kept.
    if (this.#head.length < LINE_HEAD)
      this.#head += text.slice(start, start + LINE_HEAD - this.#head.length);
    return out;
  }

  #line(line: string, out: string[]): void {
    if (line === '') {
      if (this.#id !== undefined && !this.#data) out.push(this.#id);
      this.#id = undefined;
      this.#data = false;
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) return;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value =
      colon < 0 ? '' : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
    if (field === 'data') this.#data = true;
    else if (field === 'id' && value !== '' && !value.includes('\0') && line.length < LINE_HEAD)
      this.#id = value;
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
