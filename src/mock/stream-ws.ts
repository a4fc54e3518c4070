/**
 * The WebSocket stream at /v1/news/ws (the contract's frames), on `ws` with
 * `noServer`: the HTTP server hands us its upgrade requests. Everything is
 * checked before the upgrade, so a bad key, filter or `stream.max_age`, an
 * empty balance or a full stream cap is an ordinary HTTP answer with the
 * error envelope, as on the server-sent events stream.
 *
 * Frames, JSON text, each with a `type`:
 *   server: connected {session_id, last_event_id, retry}, article {id, article}, heartbeat,
 *           error {error: <envelope>}, pong
 *   client: ping → pong; resume {last_event_id} → the replay, as Last-Event-ID.
 * Delivery starts at the client's first frame (a `resume`, or anything else)
 * or after the resume grace (resumeGraceWallMs): a client that reconnects
 * sends `resume` at once, and the replay must come before any live article,
 * in indexing order. What is indexed during the wait is sent when delivery
 * starts.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { type Accounts, authenticate, modeOfKey, presentedKey } from './accounts.js';
import { PLAN_LIMITS } from './accounts.js';
import type { ArticleBus } from './article-bus.js';
import type { MockClock, MockTimer } from './clock.js';
import { corsHeaders } from './cors.js';
import type { NewsEngine } from './engine-adapter.js';
import { MockHttpError, errorEnvelope } from './error-envelope.js';
import { TooManyRequests, parseScenario } from './faults.js';
import {
  ANONYMOUS_RATE_LIMIT,
  type RateLimiter,
  type RateState,
  rateLimitFor,
  rateLimitHeaders,
} from './rate-limit.js';
import { RETRY_MS, StreamFeed } from './stream-feed.js';
import type { StreamJournal } from './stream-journal.js';
import { streamRequest } from './stream-request.js';
import type { StreamSessions } from './stream-sessions.js';
import { STREAM_PROTOCOL } from '../params/stream-params.js';
import { WS_PATH, reject } from './upgrade-reject.js';

export { WS_PATH };
/** How long a new socket waits for the client's first frame before going live: 1 s, and at least 1 mock second. */
export const RESUME_GRACE_MS = 1000;
/** Bytes a socket may hold unsent before its feed waits (a slow reader). */
const WS_HIGH_WATER = 256 * 1024;

/**
 * The resume grace in wall-clock milliseconds. The client's `resume` crosses
 * a real network and a real event loop, which the time scale does not speed
 * up: scaled like the mock's timers, the grace was 1 ms at `--time-scale
 * 0.001`, shorter than the round trip, so a socket often went live before
 * its `resume` came; a live batch then went out first and a drop-after-N cut
 * the socket before the replay, and every article in between was lost. So
 * the time scale may lengthen the grace (a slow mock) but never shortens it.
 */
export function resumeGraceWallMs(timeScale: number): number {
  return RESUME_GRACE_MS * Math.max(1, timeScale);
}

export interface WsDeps {
  accounts: Accounts;
  limiter: RateLimiter;
  clock: MockClock;
  engine: () => NewsEngine;
  bus: ArticleBus;
  journal: StreamJournal;
  sessions: StreamSessions;
  nextRequestId: () => string;
  baseUrl: () => string;
  log: ((line: string) => void) | undefined;
}

export interface WsEndpoint {
  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (server shutdown). */
  close(): void;
}

export function createWsEndpoint(deps: WsDeps): WsEndpoint {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const { clock } = deps;

  const handle = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const requestId = deps.nextRequestId();
    const url = new URL(req.url ?? '/', deps.baseUrl());
    const presented = presentedKey(req.headers, url.searchParams);
    let rate: RateState | undefined;
    let mode = modeOfKey(presented?.key);
    const headers = (): Record<string, string> => ({
      ...corsHeaders(),
      'x-request-id': requestId,
      'x-service-mode': mode,
      ...rateLimitHeaders(rate ?? deps.limiter.peek('anonymous', ANONYMOUS_RATE_LIMIT)),
    });

    let feed: StreamFeed;
    let ws: WebSocket | undefined;
    // A feed waiting for a full socket to drain: told when a frame's write completes below the mark.
    let waiting: (() => void) | undefined;
    const tookIt = (): void => {
      if (waiting === undefined || (ws?.bufferedAmount ?? 0) >= WS_HIGH_WATER) return;
      const ready = waiting;
      waiting = undefined;
      ready();
    };
    const send = (frame: unknown): void => {
      if (ws !== undefined && ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    try {
      const scenario = parseScenario(req.headers['x-mock-scenario']);
      const account = authenticate(deps.accounts, presented);
      mode = account.mode;
      const taken = deps.limiter.take(account.key, rateLimitFor(account.plan, account.mode));
      rate = taken.state;
      if (!taken.allowed) {
        throw new TooManyRequests(
          `Rate limit of ${rate.limit} requests per minute exceeded.`,
          rate.resetSeconds,
        );
      }
      account.assertScope('news:read');
      const params: Record<string, unknown> = {};
      for (const name of new Set(url.searchParams.keys())) {
        params[name] = url.searchParams.getAll(name).join(',');
      }
      const request = streamRequest(params, account, deps.engine(), {
        now: clock.now(),
        mode: account.mode,
        plan: account.plan,
        perPageCap: PLAN_LIMITS[account.plan].perPage,
        path: url.pathname,
        requestId,
        baseUrl: deps.baseUrl(),
      });
      feed = new StreamFeed(
        {
          account,
          clock,
          requestId,
          scenario,
          filters: request.filters,
          matcherAt: request.matcherAt,
          maxAgeMs: request.maxAgeMs,
          bus: deps.bus,
          journal: deps.journal,
          sessions: deps.sessions,
          transport: 'ws',
        },
        {
          articles: (items) => {
            const socket = ws;
            if (socket === undefined || socket.readyState !== socket.OPEN) return false;
            for (const { id, json } of items) {
              // The frame's JSON around the article's own text: no second encoding.
              socket.send(`{"type":"article","id":${id},"article":${json}}`, tookIt);
            }
            return socket.bufferedAmount < WS_HIGH_WATER;
          },
          whenWritable: (ready) => {
            if (ws !== undefined && ws.bufferedAmount >= WS_HIGH_WATER) waiting = ready;
            else setImmediate(ready);
          },
          heartbeat: () => send({ type: 'heartbeat' }),
          error: (envelope) => send({ type: 'error', error: envelope }),
          end: () => ws?.close(1000, 'stream ended'),
          buffered: () => ws?.bufferedAmount ?? 0,
          // The frames already sent get out first (the ping's callback comes
          // once the socket took them), then the socket dies without a close frame.
          cut: () => {
            const socket = ws;
            if (socket === undefined || socket.readyState !== socket.OPEN) return;
            socket.ping(undefined, undefined, () => socket.terminate());
          },
        },
      );
    } catch (error) {
      reject(socket, error, requestId, headers(), clock.now(), deps.log);
      return;
    }

    // A handshake that fails (bad Sec-WebSocket-Key) never reaches the callback.
    socket.once('close', () => {
      if (ws === undefined) feed.stop();
    });
    // Where delivery starts: the journal's end, and the id a client resumes after to get the same.
    const position = deps.journal.end;
    const newestId = deps.journal.newestId;
    let grace: MockTimer | undefined;
    const startOnce = (from: Parameters<StreamFeed['start']>[0]): void => {
      grace?.cancel();
      grace = undefined;
      feed.start(from);
    };
    const onHeaders = (lines: string[], request: IncomingMessage): void => {
      if (request !== req) return;
      for (const [name, value] of Object.entries({
        ...headers(),
        [STREAM_PROTOCOL.sessionHeader]: feed.session.id,
      })) {
        lines.push(`${name}: ${value}`);
      }
    };
    wss.on('headers', onHeaders);
    wss.handleUpgrade(req, socket, head, (socketWs) => {
      wss.off('headers', onHeaders);
      ws = socketWs;
      deps.log?.(`GET ${url.pathname} 101 websocket ${requestId}`);
      ws.on('close', () => {
        grace?.cancel();
        feed.stop();
      });
      ws.on('error', () => {
        feed.stop();
      });
      ws.on('message', (data, isBinary) => {
        const frame = isBinary ? undefined : parseFrame(String(data));
        if (frame?.type === 'ping') send({ type: 'pong' });
        if (frame?.type === 'resume' && typeof frame.last_event_id === 'string') {
          if (grace === undefined) feed.replay(frame.last_event_id);
          else startOnce({ lastEventId: frame.last_event_id });
          return;
        }
        if (frame?.type === 'resume' && typeof frame.last_event_id === 'number') {
          if (grace === undefined) feed.replay(String(frame.last_event_id));
          else startOnce({ lastEventId: String(frame.last_event_id) });
          return;
        }
        if (grace !== undefined) startOnce({ position });
        if (frame === undefined || (frame.type !== 'ping' && frame.type !== 'resume')) {
          send({
            type: 'error',
            error: errorEnvelope(
              new MockHttpError(
                400,
                undefined,
                'Unknown frame: send {"type":"ping"} or {"type":"resume","last_event_id":"…"}.',
              ),
              requestId,
              clock.now(),
            ),
          });
        }
      });
      // `retry` (ms) is the mock's addition to the contract's frame, as SSE's `retry:`.
      send({
        type: 'connected',
        session_id: feed.session.id,
        // The stream's position: a client cut before its first article resumes from it.
        last_event_id: String(newestId),
        retry: Math.max(1, Math.round(RETRY_MS * clock.timeScale)),
      });
      grace = clock.setTimeout(
        () => startOnce({ position }),
        resumeGraceWallMs(clock.timeScale) / clock.timeScale,
      );
    });
  };

  return {
    handle,
    close: () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}

function parseFrame(text: string): { type?: unknown; last_event_id?: unknown } | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as { type?: unknown; last_event_id?: unknown })
      : undefined;
  } catch {
    return undefined;
  }
}
