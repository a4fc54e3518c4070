/**
 * The seam between the stream session (reconnects, dedupe, idle watchdog:
 * stream-session.ts) and its two transports (stream-sse.ts, stream-ws.ts).
 * Type-only, so importing it costs nothing.
 */
import type { ApiErrorEnvelope } from '../errors.js';

/** What a connection yields, a chunk of the wire at a time. */
export type StreamItem =
  /** The server accepted the connection. */
  | { kind: 'open'; sessionId: string | undefined; mode: string | undefined }
  | {
      kind: 'article';
      id: string;
      article: Record<string, unknown>;
      /** The article's JSON text as received, when it is one line: jsonl output reuses it. */
      json?: string | undefined;
    }
  /**
   * Where the stream stands, said at connect before any article (SSE: an
   * `id:` without data; WebSocket: `last_event_id` in `connected`): a
   * reconnect resumes from it when no article came yet.
   */
  | { kind: 'position'; id: string }
  /** The server's reconnection delay (`retry:`), in milliseconds. */
  | { kind: 'retry'; ms: number }
  /** An `error` event or frame: what the server said, before the stream ends. */
  | { kind: 'error'; envelope: ApiErrorEnvelope | undefined; text: string };

export interface StreamConnectRequest {
  /** The full URL, query included (with `api_key` when auth is `query`). */
  readonly url: string;
  /** Auth and user agent; the transport adds its own. */
  readonly headers: Readonly<Record<string, string>>;
  /** Sent as `Last-Event-ID` (SSE) or a `resume` frame (WebSocket). */
  readonly lastEventId: string | undefined;
  /** Aborting it closes the connection. */
  readonly signal: AbortSignal;
  /** Called on every chunk or frame, heartbeats included: it feeds the idle watchdog. */
  readonly onActivity: () => void;
}

/**
 * One connection as an async iterable of item batches. A non-2xx answer to
 * the connect throws the typed ApiError; a network failure throws anything
 * else; the server ending the stream ends the iteration.
 */
export interface StreamTransport {
  readonly name: 'sse' | 'ws';
  connect(request: StreamConnectRequest): AsyncIterable<StreamItem[]>;
  /** Frees sockets; the transport is not used afterwards. */
  close(): Promise<void>;
}

export interface StreamTransportOptions {
  /** Until the server answers the connect (headers, or the WebSocket handshake). */
  readonly connectTimeoutMs: number;
  /** Proxy variables are read from here. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** WebSocket: how often to send a `ping` frame; default 15 000 ms. */
  readonly pingIntervalMs?: number;
}

/* What the session (stream-session.ts) hands its consumer and tells it. */

export interface StreamArticle {
  readonly id: string;
  readonly article: Record<string, unknown>;
  /** The JSON text as received (one line), when the transport had it. */
  readonly json?: string | undefined;
}

export interface ReconnectInfo {
  /** Consecutive failed attempts so far (0 after a clean drop of a working stream). */
  readonly failures: number;
  readonly delayMs: number;
  /** Human and short: `connection reset`, `no data for 45 s`, `session lifetime reached (ER0362)`. */
  readonly reason: string;
  readonly lastEventId: string | undefined;
  /** How long the stream has been without a working connection (0 right after a drop). */
  readonly downMs: number;
  /** Whether a connection was ever accepted: a lost stream, not one that never started. */
  readonly everOpen: boolean;
}

/** A connection accepted again after failed attempts. */
export interface RestoredInfo {
  /** The failed attempts it took. */
  readonly failures: number;
  readonly downMs: number;
  readonly lastEventId: string | undefined;
}

/**
 * The service numbers below the id the session started after (a saved
 * watermark, `--last-event-id`): nothing it sends can pass until its ids do.
 */
export interface BehindInfo {
  /** The service's id: its position at connect, or an article it sent. */
  readonly id: string;
  readonly startAfter: string;
  readonly from: 'position' | 'article';
}

/** An accepted connection: the server's session id and mode, when it said them. */
export interface OpenInfo {
  readonly sessionId: string | undefined;
  readonly mode: string | undefined;
}

/** How the stream ended when it ended without an error. */
export type StreamEnd =
  | { reason: 'stopped' }
  /** ER0364: someone closed the session through the sessions endpoint. */
  | { reason: 'closed'; message: string };
