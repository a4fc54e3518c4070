/**
 * The mock API server: a real `node:http` server on loopback serving the
 * whole specification from fixture data. `startMockServer` is what
 * `news mock serve` and `--mock` call; docs/MOCK.md is the user's guide.
 *
 * Request pipeline, in order (each step can answer early):
 *   latency → OPTIONS preflight → X-Mock-Scenario → fail-rate → route →
 *   key (401) → rate limit (429) → scope (403) → body (400/413) →
 *   points check (402) → handler → charge.
 * Every answer, errors included, carries CORS, x-service-mode, X-Request-Id,
 * X-RateLimit-* and (when the key is known) X-Points-* headers.
 */
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as wallSleep } from 'node:timers/promises';
import { type Account, Accounts, authenticate, modeOfKey, presentedKey } from './accounts.js';
import { addAdminRoutes } from './admin-routes.js';
import { addApiRoutes } from './api-routes.js';
import { indexArticles, maxArticleId, normalizeArticles } from './article-intake.js';
import { ArticleBus } from './article-bus.js';
import { type MockClock, createClock } from './clock.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { DeliveryLog } from './delivery-log.js';
import {
  type EngineFactory,
  type NewsEngine,
  defaultEngineFactory,
  loadStore,
} from './engine-adapter.js';
import { MockHttpError, errorEnvelope } from './error-envelope.js';
import {
  FailureInjector,
  SLOW_SCENARIO_MS,
  type Scenario,
  TooManyRequests,
  parseScenario,
  serverFault,
} from './faults.js';
import type { Article, FixtureStore } from './fixtures/types.js';
import { JsonBodyWriter } from './json-body.js';
import { assertJsonDepth } from './json-limits.js';
import { type Publisher, startPublisher } from './publisher.js';
import { API_BODY_LIMIT, isPlainObject, parseJson, readBody, writeJson } from './http-io.js';
import { WEBSOCKET_MESSAGE, addNewsRoutes } from './news-routes.js';
import {
  ANONYMOUS_RATE_LIMIT,
  RateLimiter,
  type RateState,
  rateLimitFor,
  rateLimitHeaders,
} from './rate-limit.js';
import type { RouteContext, RouteDef } from './route-types.js';
import { Router } from './router.js';
import { StreamJournal } from './stream-journal.js';
import { StreamSessions } from './stream-sessions.js';
import { WS_PATH, createWsEndpoint, reject as rejectUpgrade } from './stream-ws.js';
import { STREAM_MAX_AGE } from '../params/stream-params.js';
import { startWebhookDispatcher } from './webhook-dispatcher.js';
import { seedExampleWebhooks } from './webhook-examples.js';
import { addWebhookRoutes } from './webhook-routes.js';
import { WebhookStore } from './webhooks-store.js';

export interface MockServerOptions {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Fixture seed; also seeds `failRate`'s PRNG. Default: the committed fixtures' seed. */
  seed?: number;
  /** Number of fixture articles. Default: the committed set. */
  articles?: number;
  /** The mock's "now"; fixture dates are relative to it. Default: the current time. */
  now?: Date;
  /** Multiplies every timer of the mock; the mock clock runs 1/F as fast as the wall clock. Default 1. */
  timeScale?: number;
  /** 0..1: share of API requests answered 500/502 (reproducible per seed). Default 0. */
  failRate?: number;
  /** Wall-clock milliseconds added before every answer. Default 0. */
  latencyMs?: number;
  /** New fixture articles per minute of mock time (src/mock/publisher.ts). Default 0: none. */
  publishRate?: number;
  /** Seeds example subscriptions for this fixture key (src/mock/webhook-examples.ts). */
  exampleWebhooksFor?: string;
  /** No request log on stderr. */
  quiet?: boolean;
  /** `false` lifts the per-plan rate limits (load tests); the headers still report them. Default true. */
  rateLimits?: boolean;
  /** Use this store instead of loading fixtures (tests, embedding). */
  store?: FixtureStore;
  /** Use this search engine instead of src/mock/search (tests of the server alone). */
  searchEngine?: EngineFactory;
  /** Where the request log goes; default stderr. */
  log?: (line: string) => void;
}

export interface MockServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  host: string;
  port: number;
  store: FixtureStore;
  accounts: Accounts;
  webhooks: WebhookStore;
  deliveries: DeliveryLog;
  /** New articles are announced here (streams now, the webhook dispatcher later). */
  articles: ArticleBus;
  /** The open streams (SSE and WebSocket) per key. */
  streams: StreamSessions;
  clock: MockClock;
  /** Same as `POST /__mock/articles`. */
  indexArticles(input: unknown): Article[];
  /** Stops listening, ends open streams and held requests, closes keep-alive sockets. */
  close(): Promise<void>;
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const clock = createClock({ now: options.now, timeScale: options.timeScale });
  const latencyMs = Math.max(0, options.latencyMs ?? 0);
  const log = options.quiet
    ? undefined
    : (options.log ?? ((line: string) => process.stderr.write(`${line}\n`)));

  const store =
    options.store ??
    loadStore({
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.articles === undefined ? {} : { articles: options.articles }),
      // --now itself, not the clock a moment later: two servers of the same --now
      // hold the same dates to the millisecond, however loaded the machine.
      now: options.now ?? clock.now(),
    });
  // Same seed, same failures: the fault PRNG follows the fixture seed.
  const failures = new FailureInjector(options.failRate ?? 0, options.seed ?? store.seed);
  const createEngine = options.searchEngine ?? defaultEngineFactory;
  let engine: NewsEngine = createEngine(store);
  const accounts = new Accounts();
  const limiter = new RateLimiter();
  const rateLimited = options.rateLimits !== false;
  const webhooks = new WebhookStore(clock);
  if (options.exampleWebhooksFor !== undefined)
    seedExampleWebhooks(webhooks, accounts, options.exampleWebhooksFor);
  const deliveries = new DeliveryLog();
  const bus = new ArticleBus();
  // Subscribed first, so every stream finds a new batch already journaled.
  const journal = new StreamJournal(clock, bus, STREAM_MAX_AGE.max * 60_000);
  const streamSessions = new StreamSessions(clock);
  const json = new JsonBodyWriter(
    (item) => store.articleById.get((item as { id?: number }).id ?? -1) === item,
  );
  const encode = (body: unknown): Buffer => json.encode(body);

  /** Complete articles (the publisher's, made by the fixture generator) go straight in. */
  const indexComplete = (articles: Article[]): Article[] => {
    indexArticles(store, articles);
    if (engine.addArticles) engine.addArticles(articles);
    else engine = createEngine(store);
    bus.publish(articles);
    return articles;
  };
  /** What anyone posts is checked and completed first (article-intake.ts). */
  const indexNew = (input: unknown): Article[] =>
    indexComplete(normalizeArticles(input, store, clock.now()));

  const router = new Router<RouteDef>();
  addApiRoutes(router, () => store);
  addNewsRoutes(
    router,
    () => engine,
    () => store,
    { bus, journal, sessions: streamSessions },
  );
  addWebhookRoutes(router, webhooks);
  addAdminRoutes(router, {
    accounts,
    webhooks,
    deliveries,
    indexArticles: indexNew,
  });

  // Unique per server and cheap: a random prefix and a counter (16 hex digits).
  const idPrefix = randomBytes(4).toString('hex');
  let requestCount = 0;
  const nextRequestId = (): string =>
    `req_${idPrefix}${(requestCount++ >>> 0).toString(16).padStart(8, '0')}`;
  let baseUrl = '';

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const requestId = nextRequestId();
    // Node's parser lets through request targets URL cannot read
    // (`GET http://[::1 HTTP/1.1`): they get a 400 below, never silence.
    const readable = URL.canParse(req.url ?? '/', baseUrl);
    const url = new URL(readable ? (req.url ?? '/') : '/', baseUrl);
    const method = req.method ?? 'GET';
    const presented = presentedKey(req.headers, url.searchParams);
    let account: Account | undefined =
      presented === undefined ? undefined : accounts.get(presented.key);
    let rate: RateState | undefined;
    let pointsUsed = 0;

    // Closing the server destroys every socket, which closes `res`, so this
    // one signal covers "client gone" and "server closing" alike.
    const signal = abortOnClose(res);
    const headers = (): Record<string, string> => {
      const h: Record<string, string> = {
        ...corsHeaders(),
        'x-request-id': requestId,
        'x-service-mode': account?.mode ?? modeOfKey(presented?.key),
        ...rateLimitHeaders(
          rate ??
            (account === undefined
              ? limiter.peek('anonymous', ANONYMOUS_RATE_LIMIT)
              : limiter.peek(account.key, rateLimitFor(account.plan, account.mode))),
        ),
      };
      if (account !== undefined) {
        h['x-points-remaining'] = String(account.points);
        h['x-points-used'] = String(pointsUsed);
      }
      return h;
    };
    const send = (status: number, body: unknown, extra: Record<string, string> = {}): void => {
      if (res.headersSent || res.destroyed) return;
      writeJson(res, status, { ...headers(), ...extra }, body, encode);
      log?.(
        `${method} ${url.pathname} ${status} ${(performance.now() - started).toFixed(1)}ms ${requestId}`,
      );
    };

    try {
      if (!readable) {
        throw new MockHttpError(400, undefined, 'The request target is not a readable URL.');
      }
      if (latencyMs > 0) await wallSleep(latencyMs, undefined, { signal });

      if (method === 'OPTIONS') {
        send(204, undefined, preflightHeaders(req.headers));
        return;
      }

      const found = router.match(method, url.pathname);
      const admin = found.kind === 'found' && found.match.route.admin === true;

      let scenario: Scenario | undefined;
      if (!admin) {
        scenario = parseScenario(req.headers['x-mock-scenario']);
        if (scenario === '500' || scenario === '502')
          throw serverFault(Number(scenario) as 500 | 502, 'X-Mock-Scenario');
        if (scenario === '429') {
          throw new TooManyRequests(
            'Rate limit exceeded (X-Mock-Scenario). Retry after 1 second.',
            1,
          );
        }
        if (scenario === 'reset') {
          req.socket.destroy();
          return;
        }
        if (scenario === 'timeout') {
          // Never answer: the client's timeout has to fire. Server close destroys the socket.
          return;
        }
        if (scenario === 'slow') await clock.sleep(SLOW_SCENARIO_MS, signal);
        const fault = failures.next();
        if (fault !== undefined) throw serverFault(fault, '--fail-rate');
      }

      if (found.kind === 'not-found')
        throw new MockHttpError(404, undefined, `No route for ${url.pathname}.`);
      if (found.kind === 'method-not-allowed') {
        send(
          405,
          errorEnvelope(
            new MockHttpError(405, undefined, `${method} is not allowed on ${url.pathname}.`),
            requestId,
            clock.now(),
          ),
          {
            allow: [...found.allow, 'OPTIONS'].join(', '),
          },
        );
        return;
      }
      const { route, params: pathParams } = found.match;

      if (route.auth === 'key') {
        account = authenticate(accounts, presented);
        const limit = rateLimitFor(account.plan, account.mode);
        const taken = rateLimited
          ? limiter.take(account.key, limit)
          : { allowed: true, state: limiter.peek(account.key, limit) };
        rate = taken.state;
        if (!taken.allowed) {
          throw new TooManyRequests(
            `Rate limit of ${rate.limit} requests per minute exceeded.`,
            rate.resetSeconds,
          );
        }
        if (route.scope !== undefined) account.assertScope(route.scope);
      } else if (route.admin) {
        // Admin answers describe no key, whatever the request carried.
        account = undefined;
      }

      let body: unknown;
      if (method !== 'GET') {
        body = parseJson(await readBody(req, route.bodyLimit ?? API_BODY_LIMIT));
        assertJsonDepth(body);
      }
      const params = mergeParams(url.searchParams, body);

      if (route.metered) account?.assertCanSpend();

      const ctx: RouteContext = {
        req,
        res,
        url,
        pathParams,
        params,
        body,
        account,
        requestId,
        scenario,
        clock,
        baseUrl,
        signal,
        responseHeaders: headers,
      };
      const reply = await route.handler(ctx);
      if ('streaming' in reply) {
        log?.(`${method} ${url.pathname} 200 stream ${requestId}`);
        return;
      }
      if (account !== undefined && reply.cost !== undefined)
        pointsUsed = account.charge(reply.cost);
      send(reply.status, reply.body, reply.headers);
    } catch (error) {
      if (signal.aborted && !(error instanceof MockHttpError)) {
        // The client left or the server is closing: nobody to answer.
        res.destroy();
        return;
      }
      const known =
        error instanceof MockHttpError
          ? error
          : new MockHttpError(500, undefined, 'Internal mock server error.');
      if (!(error instanceof MockHttpError))
        log?.(
          `mock server error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      send(
        known.status,
        errorEnvelope(known, requestId, clock.now()),
        known instanceof TooManyRequests ? { 'retry-after': String(known.retryAfterSeconds) } : {},
      );
    }
  };

  const server: Server = createServer((req, res) => {
    // handle() answers its own errors; this only catches a failure to write one.
    handle(req, res).catch(() => res.destroy());
  });
  // A request the HTTP parser cannot read (`GET http://[::1 HTTP/1.1`, a bad
  // header) gets a 400 and its connection closed; the server keeps serving.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error.code === 'ECONNRESET' && socket.bytesWritten > 0)) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const requestId = nextRequestId();
    const body = JSON.stringify(
      errorEnvelope(
        new MockHttpError(
          status,
          undefined,
          tooLarge
            ? 'Request headers too large.'
            : `The request could not be parsed as HTTP (${error.code ?? 'bad request'}).`,
        ),
        requestId,
        clock.now(),
      ),
    );
    // The headers every answer carries, as far as an unreadable request allows.
    const headers: Record<string, string> = {
      ...corsHeaders(),
      'x-request-id': requestId,
      'x-service-mode': 'live',
      ...rateLimitHeaders(limiter.peek('anonymous', ANONYMOUS_RATE_LIMIT)),
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n${head}\r\n${body}`,
    );
  });

  const ws = createWsEndpoint({
    accounts,
    limiter,
    clock,
    engine: () => engine,
    bus,
    journal,
    sessions: streamSessions,
    nextRequestId,
    baseUrl: () => baseUrl,
    log,
  });
  // The WebSocket stream lives at /v1/news/ws; an upgrade anywhere else is a 426.
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    // Node sends every `Connection: Upgrade` request here. Anything but a
    // WebSocket upgrade (curl --http2's h2c) is an ordinary request: answered
    // as HTTP/1.1, as a real server that ignores the upgrade would.
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
      const res = new ServerResponse(req);
      res.assignSocket(socket);
      res.shouldKeepAlive = false;
      res.on('finish', () => socket.end());
      if (head.length > 0) req.unshift(head);
      handle(req, res).catch(() => socket.destroy());
      return;
    }
    const url = URL.canParse(req.url ?? '/', baseUrl)
      ? new URL(req.url ?? '/', baseUrl)
      : undefined;
    if (url === undefined) {
      rejectUpgrade(
        socket,
        new MockHttpError(400, undefined, 'The request target is not a valid URL.'),
        nextRequestId(),
        corsHeaders(),
        clock.now(),
        log,
      );
      return;
    }
    if (url.pathname.replace(/\/+$/, '') === WS_PATH) {
      ws.handle(req, socket, head);
      return;
    }
    const key = presentedKey(req.headers, url.searchParams)?.key;
    rejectUpgrade(
      socket,
      new MockHttpError(426, undefined, WEBSOCKET_MESSAGE),
      nextRequestId(),
      {
        ...corsHeaders(),
        'x-service-mode': modeOfKey(key),
        ...rateLimitHeaders(limiter.peek('anonymous', ANONYMOUS_RATE_LIMIT)),
      },
      clock.now(),
      log,
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${urlHost}:${address.port}`;

  const publisher: Publisher | undefined =
    options.publishRate === undefined || options.publishRate === 0
      ? undefined
      : startPublisher({
          clock,
          ratePerMinute: options.publishRate,
          seed: options.seed ?? store.seed,
          nextId: () => maxArticleId(store) + 1,
          index: (articles) => {
            indexComplete(articles);
          },
        });

  const dispatcher = startWebhookDispatcher({
    bus,
    webhooks,
    accounts,
    deliveries,
    clock,
    engine: () => engine,
    baseUrl: () => baseUrl,
    log,
  });

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      publisher?.stop();
      ws.close();
      journal.close();
      dispatcher.stop();
      clock.dispose();
      server.close(() => resolve());
      // Keep-alive, streaming and deliberately held (`timeout`) sockets would
      // otherwise keep close() waiting for minutes.
      server.closeAllConnections();
    });
    return closed;
  };

  return {
    url: baseUrl,
    host: address.address,
    port: address.port,
    store,
    accounts,
    webhooks,
    deliveries,
    articles: bus,
    streams: streamSessions,
    clock,
    indexArticles: indexNew,
    close,
  };
}

function abortOnClose(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client went away'));
  });
  return controller.signal;
}

/**
 * Query string first, then the JSON body object on top. Repeated query
 * parameters become one comma-separated list, the API's list form.
 */
function mergeParams(query: URLSearchParams, body: unknown): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const name of new Set(query.keys())) {
    if (name === 'api_key') continue;
    params[name] = query.getAll(name).join(',');
  }
  if (isPlainObject(body)) {
    for (const [name, value] of Object.entries(body)) if (name !== 'api_key') params[name] = value;
  }
  return params;
}
