/**
 * GET /v1/news/stream — server-sent events. The spec does not show the event
 * names or payloads, so the mock keeps it plain and documents it:
 * - on connect: a comment line (`: connected …`) and `retry: 3000`;
 * - every article indexed after the connection that matches the request's
 *   filters (same parameters as search): `event: article`, `id: <article id>`,
 *   `data: <article JSON>` (truncated for test keys);
 * - a `: heartbeat` comment every 15 mock seconds (× time scale);
 * - live keys pay 1 point per article sent, as for webhook deliveries; when
 *   the balance runs out the stream sends `event: error` with the 402
 *   envelope and ends.
 * It ends when the client disconnects or the server closes.
 */
import type { ArticleBus } from './article-bus.js';
import type { NewsEngine, SearchContext } from './engine-adapter.js';
import { MockHttpError, errorEnvelope } from './error-envelope.js';
import type { Article } from './fixtures/types.js';
import type { RouteContext, StreamingReply } from './route-types.js';
import { testModeArticle as previewArticle } from './search/test-mode.js';

export const HEARTBEAT_MS = 15_000;

export function openStream(
  ctx: RouteContext,
  engine: NewsEngine,
  bus: ArticleBus,
  searchContext: SearchContext,
): StreamingReply {
  const account = ctx.account!;
  // Built now so a bad filter is a normal error answer before the stream
  // starts; rebuilt per batch because search windows end at "now" and the
  // articles to come are newer than the connection.
  const matcherAt = (now: Date) => engine.matcher(ctx.params, { ...searchContext, now });
  matcherAt(searchContext.now);
  const { res } = ctx;
  res.writeHead(200, {
    ...ctx.responseHeaders(),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Tell proxies (nginx) not to buffer the events.
    'x-accel-buffering': 'no',
  });
  res.write(`: connected to the mock news stream (${account.mode} mode)\nretry: 3000\n\n`);

  let heartbeat = ctx.clock.setTimeout(function beat() {
    res.write(': heartbeat\n\n');
    heartbeat = ctx.clock.setTimeout(beat, HEARTBEAT_MS);
  }, HEARTBEAT_MS);

  const finish = (): void => {
    unsubscribe();
    heartbeat.cancel();
  };

  const send = (article: Article): boolean => {
    if (account.mode === 'live' && account.points <= 0) {
      const error = new MockHttpError(
        402,
        undefined,
        'No points remaining on this API key; the stream ends.',
      );
      res.write(
        `event: error\ndata: ${JSON.stringify(errorEnvelope(error, ctx.requestId, ctx.clock.now()))}\n\n`,
      );
      finish();
      res.end();
      return false;
    }
    account.charge(1);
    const payload = account.mode === 'test' ? previewArticle(article) : article;
    res.write(`event: article\nid: ${article.id}\ndata: ${JSON.stringify(payload)}\n\n`);
    return true;
  };

  const unsubscribe = bus.subscribe((articles) => {
    if (res.writableEnded || res.destroyed) return;
    const matches = matcherAt(ctx.clock.now());
    for (const article of articles) {
      if (matches(article) && !send(article)) return;
    }
  });
  res.on('close', finish);
  return { streaming: true };
}
