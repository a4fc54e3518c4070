/**
 * The /v1/news/* routes: every one accepts GET with query parameters and POST
 * with a JSON body (merged by the server), and hands the work to the search
 * engine. The engine says what a request costs; the server charges it.
 */
import { PLAN_LIMITS } from './accounts.js';
import type { EngineResult, NewsEngine, SearchContext } from './engine-adapter.js';
import { feedFilter } from './classification-feeds.js';
import { factCheck } from './endpoints/fact-check.js';
import { rawFeed } from './endpoints/news-raw.js';
import { MockHttpError } from './error-envelope.js';
import type { FixtureStore } from './store/fixture-store.js';
import { selectFields } from './field-list.js';
import { isPlainObject } from './http-io.js';
import type { Method, Router } from './router.js';
import type { JsonReply, PlainRoute, RequestContext, RouteDef } from './route-types.js';
import { type StreamDeps, openStream } from './stream.js';
import { type StreamSessions, addStreamSessionRoutes } from './stream-sessions.js';

const BOTH: readonly Method[] = ['GET', 'POST'];

export function searchContext(ctx: RequestContext): SearchContext {
  const account = ctx.account!;
  return {
    now: ctx.clock.now(),
    mode: account.mode,
    plan: account.plan,
    perPageCap: PLAN_LIMITS[account.plan].perPage,
    path: ctx.url.pathname,
    requestId: ctx.requestId,
    baseUrl: ctx.baseUrl,
    promptUnavailable: ctx.scenario === 'prompt-unavailable',
  };
}

function reply(result: EngineResult): JsonReply {
  return { status: 200, body: result.body, cost: result.points };
}

export function addNewsRoutes(
  router: Router<RouteDef>,
  engine: () => NewsEngine,
  store: () => FixtureStore,
  /** What the stream routes need; asked for when a stream opens (never in-process). */
  streams: () => StreamDeps,
  sessions: StreamSessions,
): void {
  const news = (run: (ctx: RequestContext, sc: SearchContext) => EngineResult): PlainRoute => ({
    auth: 'key',
    scope: 'news:read',
    metered: true,
    handler: (ctx) => {
      if (ctx.body !== undefined && !isPlainObject(ctx.body)) {
        throw new MockHttpError(
          400,
          undefined,
          'The JSON body must be an object of search parameters.',
        );
      }
      const result = run(ctx, searchContext(ctx));
      const fl = ctx.params['fl'];
      return reply(fl === undefined ? result : { ...result, body: selectFields(result.body, fl) });
    },
  });

  router
    .add(
      BOTH,
      '/v1/news/everything',
      news((c, sc) => engine().everything(c.params, sc)),
    )
    .add(
      BOTH,
      '/v1/news/top-headlines',
      news((c, sc) => engine().headlines(c.params, sc)),
    )
    .add(
      BOTH,
      '/v1/news/story/:articleId',
      news((c, sc) => engine().story(c.pathParams['articleId']!, c.params, sc)),
    )
    .add(
      BOTH,
      '/v1/news/article',
      news((c, sc) => engine().article(c.params, sc)),
    )
    .add(
      BOTH,
      '/v1/news/count',
      news((c, sc) => engine().count(c.params, sc)),
    )
    .add(
      BOTH,
      '/v1/news/trends',
      news((c, sc) => engine().trends(c.params, sc)),
    )
    .add(
      BOTH,
      '/v1/news/local',
      news((c, sc) => engine().local(c.params, sc)),
    )
    .add(
      BOTH,
      '/v1/news/entity/:entityId',
      news((c, sc) => engine().entityFeed(c.pathParams['entityId']!, c.params, sc)),
    )
    // The OpenAPI document's classification feeds: search with the path's id as
    // the filter; an unknown or malformed id is a 404 (classification-feeds.ts).
    .add(
      BOTH,
      '/v1/news/category/:taxonomy/:categoryId',
      news((c, sc) => {
        const f = feedFilter(
          store(),
          'category',
          c.pathParams['categoryId']!,
          c.pathParams['taxonomy'],
        );
        return engine().everything({ ...c.params, [f.name]: f.value }, sc);
      }),
    )
    .add(
      BOTH,
      '/v1/news/topic/:topicId',
      news((c, sc) => {
        const f = feedFilter(store(), 'topic', c.pathParams['topicId']!);
        return engine().everything({ ...c.params, [f.name]: f.value }, sc);
      }),
    )
    .add(
      BOTH,
      '/v1/news/industry/:industryId',
      news((c, sc) => {
        const f = feedFilter(store(), 'industry', c.pathParams['industryId']!);
        return engine().everything({ ...c.params, [f.name]: f.value }, sc);
      }),
    )
    // Reference data: free, so an exhausted key can still read it.
    .add(BOTH, '/v1/news/event-types', {
      auth: 'key',
      scope: 'news:read',
      handler: () => reply(engine().eventTypes()),
    })
    // Not `metered`: an empty balance is 402 with the stream's own code, ER0301 (stream-request.ts).
    .add('GET', '/v1/news/stream', {
      auth: 'key',
      scope: 'news:read',
      stream: true,
      handler: (ctx) => openStream(ctx, engine(), streams(), searchContext(ctx)),
    })
    // A plain request on the WebSocket route (no Upgrade header) gets a clear 426.
    .add(['GET', 'POST'], '/v1/news/ws', {
      auth: 'key',
      scope: 'news:read',
      handler: websocketOnly,
    });
  addStreamSessionRoutes(router, sessions);
  router
    // In the OpenAPI document only; served from the fixtures in its shapes.
    .add(
      BOTH,
      '/v1/news/raw',
      news((c, sc) => rawFeed(store(), c.params, sc)),
    )
    .add('POST', '/v1/fact-check', {
      auth: 'key',
      scope: 'news:read',
      metered: true,
      handler: (ctx) => {
        if (!isPlainObject(ctx.body)) {
          throw new MockHttpError(
            400,
            undefined,
            'The JSON body must be an object with id, text or claim.',
          );
        }
        return reply(factCheck(store(), ctx.params, searchContext(ctx)));
      },
    });
}

export const WEBSOCKET_MESSAGE =
  '/v1/news/ws is the WebSocket stream: connect with Upgrade: websocket (or read the server-sent events stream at /v1/news/stream).';

function websocketOnly(): JsonReply {
  throw new MockHttpError(426, undefined, WEBSOCKET_MESSAGE);
}
