/**
 * GET /v1/news/stream — server-sent events, as the contract's "Streams" says:
 * - on connect: a comment (`: connected … session <id>`, the id also in the
 *   `X-Stream-Session-Id` header), `retry: <ms>` once (3000 × time scale)
 *   and `id: <position>` (the newest article id, or the Last-Event-ID it
 *   resumes after) in an event without data;
 * - with `Last-Event-ID` (header, or `last_event_id` in the query for
 *   clients that cannot set headers): first the matching articles indexed
 *   after that id within `stream.max_age` minutes (default 60), then live;
 * - `event: article`, `id: <article id>`, `data: <article JSON>` (preview
 *   text for test keys);
 * - `: heartbeat` every 15 mock seconds;
 * - `event: error` + the envelope, then the end, for ER0301, ER0361, ER0362,
 *   ER0364 (stream-feed.ts).
 * Connect-time errors are ordinary JSON answers: 400 ER0363 for a bad
 * `stream.max_age`, 402 ER0301 for an empty balance, 429 ER0360 over the
 * plan's stream cap.
 */
import type { ArticleBus } from './article-bus.js';
import type { NewsEngine, SearchContext } from './engine-adapter.js';
import type { RouteContext, StreamingReply } from './route-types.js';
import { RETRY_MS, StreamFeed } from './stream-feed.js';
import type { StreamJournal } from './stream-journal.js';
import { streamRequest } from './stream-request.js';
import type { StreamSessions } from './stream-sessions.js';
import { STREAM_PROTOCOL } from '../params/stream-params.js';

export { HEARTBEAT_MS } from './stream-feed.js';

export interface StreamDeps {
  bus: ArticleBus;
  journal: StreamJournal;
  sessions: StreamSessions;
}

export function openStream(
  ctx: RouteContext,
  engine: NewsEngine,
  deps: StreamDeps,
  searchContext: SearchContext,
): StreamingReply {
  const account = ctx.account!;
  const request = streamRequest(ctx.params, account, engine, searchContext);
  const { res } = ctx;
  const header = ctx.req.headers['last-event-id'];
  const lastEventId =
    (Array.isArray(header) ? header[0] : header)?.trim() ||
    (typeof ctx.params['last_event_id'] === 'string' ? ctx.params['last_event_id'] : '');

  // Any write after the socket is gone is dropped; `finish` runs on close.
  const write = (text: string): void => {
    if (!res.writableEnded && !res.destroyed) res.write(text);
  };
  const feed = new StreamFeed(
    {
      account,
      clock: ctx.clock,
      requestId: ctx.requestId,
      scenario: ctx.scenario,
      filters: request.filters,
      matcherAt: request.matcherAt,
      maxAgeMs: request.maxAgeMs,
      bus: deps.bus,
      journal: deps.journal,
      sessions: deps.sessions,
      transport: 'sse',
    },
    {
      articles: (items) => {
        let text = '';
        for (const { id, json } of items) text += `event: article\nid: ${id}\ndata: ${json}\n\n`;
        return !res.writableEnded && !res.destroyed && res.write(text);
      },
      // Never called back once the socket is gone: the feed stops on 'close' then.
      whenWritable: (ready) => {
        if (res.writableNeedDrain) res.once('drain', ready);
        else setImmediate(ready);
      },
      heartbeat: () => write(': heartbeat\n\n'),
      error: (envelope) => write(`event: error\ndata: ${JSON.stringify(envelope)}\n\n`),
      end: () => {
        if (!res.writableEnded) res.end();
      },
      buffered: () => res.writableLength + (res.socket?.writableLength ?? 0),
      cut: () => {
        // As a network cut: what was written gets out, then the socket ends
        // without the terminating chunk, so the client sees a broken stream.
        const socket = res.socket;
        if (socket === null) res.destroy();
        else socket.end(() => socket.destroy());
      },
    },
  );
  res.writeHead(200, {
    ...ctx.responseHeaders(),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Tell proxies (nginx) not to buffer the events.
    'x-accel-buffering': 'no',
    [STREAM_PROTOCOL.sessionHeader]: feed.session.id,
  });
  const retry = Math.max(1, Math.round(RETRY_MS * ctx.clock.timeScale));
  // The position, as an event without data (it sets the client's last event
  // id and dispatches nothing): where this stream starts, so a client cut
  // before its first article resumes from here. Read in the same tick as
  // feed.start subscribes, so nothing indexed can fall in between.
  const position = /^\d+$/.test(lastEventId) ? lastEventId : String(deps.journal.newestId);
  write(
    `: connected to the mock news stream (${account.mode} mode), session ${feed.session.id}\nretry: ${retry}\nid: ${position}\n\n`,
  );
  res.on('close', () => feed.stop());
  feed.start(lastEventId === '' ? undefined : { lastEventId });
  return { streaming: true };
}
