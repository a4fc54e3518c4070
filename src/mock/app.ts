/**
 * The mock without a transport: the store, the accounts and their limits,
 * the webhooks, the clock, the search engine and the routes, and the intake
 * of new articles. Served over loopback HTTP by server.ts (`news mock serve`,
 * the tests) and in-process by in-process.ts (`--mock`); both hand every
 * request to the one pipeline (pipeline.ts).
 *
 * What only a long-running mock needs starts when first needed: the stream
 * journal when the HTTP server starts (streams need a socket), the webhook
 * dispatcher with the first subscription, the publisher with
 * `--publish-rate`. A `count --mock` starts none of them.
 */
import { Accounts } from './accounts.js';
import { addAdminRoutes } from './admin-routes.js';
import { addApiRoutes } from './api-routes.js';
import { ArticleBus } from './article-bus.js';
import { type MockClock, createClock } from './clock.js';
import { DeliveryLog } from './delivery-log.js';
import { type EngineFactory, type NewsEngine, defaultEngineFactory } from './engine-adapter.js';
import { FailureInjector } from './faults.js';
import type { Article } from './fixtures/article-types.js';
import { PublishedCap } from './published-cap.js';
import { addNewsRoutes } from './news-routes.js';
import type { Publisher } from './publisher.js';
import { RateLimiter } from './rate-limit.js';
import type { RouteDef } from './route-types.js';
import { Router } from './router.js';
import type { FixtureStore } from './store/fixture-store.js';
import { type LoadFixturesOptions, loadFixtures } from './store/load.js';
import { StreamJournal } from './stream-journal.js';
import { StreamSessions } from './stream-sessions.js';
import { STREAM_MAX_AGE } from '../params/stream-params.js';
import type { Dispatcher } from './webhook-dispatcher.js';
import { seedExampleWebhooks } from './webhook-examples.js';
import { addWebhookRoutes } from './webhook-routes.js';
import { WebhookStore } from './webhooks-store.js';

export interface MockAppOptions {
  /** Fixture seed; also seeds `failRate`'s PRNG. Default: the committed fixtures' seed. */
  seed?: number;
  /** Number of fixture articles. Default: the committed set. */
  articles?: number;
  /** Stops the making of `articles` (a Ctrl-C while a large set grows): creating the app rejects. */
  signal?: AbortSignal;
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
  /**
   * The published ids start after this one, when it is past the fixtures'
   * newest: `news stream --mock --state` resumes a saved id against a new
   * mock, which must go on past it as the service would, not publish ids a
   * run already wrote.
   */
  publishAfterId?: number;
  /** How far a slow stream client may fall behind before it is dropped (tests; stream-feed.ts). */
  streamMaxLag?: number;
  /** Seeds example subscriptions for this fixture key (src/mock/webhook-examples.ts). */
  exampleWebhooksFor?: string;
  /** No request log on stderr. */
  quiet?: boolean;
  /** `false` lifts the per-plan rate limits (load tests); the headers still report them. Default true. */
  rateLimits?: boolean;
  /** Where `articles` above the base set is kept between runs (src/mock/store/grown-cache.ts). */
  cacheDir?: string;
  /** Use this store instead of loading fixtures (tests, embedding). */
  store?: FixtureStore;
  /** Use this search engine instead of src/mock/search (tests of the server alone). */
  searchEngine?: EngineFactory;
  /** Where the request log and notes go; default stderr (notes even when quiet). */
  log?: (line: string) => void;
}

export interface MockApp {
  readonly store: FixtureStore;
  readonly clock: MockClock;
  readonly accounts: Accounts;
  readonly limiter: RateLimiter;
  readonly rateLimited: boolean;
  readonly failures: FailureInjector;
  readonly latencyMs: number;
  readonly webhooks: WebhookStore;
  readonly deliveries: DeliveryLog;
  /** New articles are announced here (streams, the webhook dispatcher). */
  readonly bus: ArticleBus;
  /** The open streams (SSE and WebSocket) per key. */
  readonly sessions: StreamSessions;
  readonly router: Router<RouteDef>;
  /** The request log; undefined when quiet. */
  readonly log: ((line: string) => void) | undefined;
  /** Notes a user should see even when the request log is off (stderr by default). */
  readonly note: (line: string) => void;
  engine(): NewsEngine;
  nextRequestId(): string;
  /** The stream replay journal, started on first call (before any stream opens). */
  journal(): StreamJournal;
  /** Same as `POST /__mock/articles`. */
  indexArticles(input: unknown): Promise<Article[]>;
  /** What has started so far (tests: a one-shot command starts none of it). */
  readonly started: { journal: boolean; dispatcher: boolean; publisher: boolean };
  /** Stops timers and deliveries; the transport closes its own connections. */
  close(): void;
}

export async function createMockApp(
  options: MockAppOptions,
  /** The server's own URL (links, paging URLs), known once it listens. */
  baseUrl: () => string,
): Promise<MockApp> {
  const clock = createClock({ now: options.now, timeScale: options.timeScale });
  const note = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = options.quiet ? undefined : note;
  // The fixtures are anchored at the clock's start (`--now`), never at a later
  // reading of it: two mocks with the same seed and --now hold the same data.
  const load: LoadFixturesOptions = { now: new Date(clock.startMs) };
  if (options.seed !== undefined) load.seed = options.seed;
  if (options.articles !== undefined) load.articles = options.articles;
  if (options.cacheDir !== undefined) load.cacheDir = options.cacheDir;
  if (options.signal !== undefined) load.signal = options.signal;
  const store = options.store ?? (await loadFixtures(load));
  const createEngine = options.searchEngine ?? defaultEngineFactory;
  const engine = createEngine(store);
  const accounts = new Accounts();
  const bus = new ArticleBus();
  const deliveries = new DeliveryLog();
  const webhooks = new WebhookStore(clock);
  let journal: StreamJournal | undefined;
  let dispatcher: Dispatcher | undefined;
  let publisher: Publisher | undefined;
  const started = { journal: false, dispatcher: false, publisher: false };
  const cap = new PublishedCap(store, note);

  /** Deliveries matter once a subscription exists: the dispatcher starts (and loads) before the first. */
  const deliver = async (): Promise<void> => {
    if (dispatcher !== undefined) return;
    const { startWebhookDispatcher } = await import('./webhook-dispatcher.js');
    if (dispatcher !== undefined) return;
    dispatcher = startWebhookDispatcher({
      bus,
      webhooks,
      accounts,
      deliveries,
      clock,
      engine: () => engine,
      article: (id) => store.article(id),
      baseUrl,
      log,
    });
    started.dispatcher = true;
  };

  /** Posted articles are checked, completed and kept as sent (article-intake.ts; zod loads here). */
  const indexArticles = async (input: unknown): Promise<Article[]> => {
    const { normalizeArticles } = await import('./article-intake.js');
    const now = clock.now();
    const articles = normalizeArticles(input, store, now);
    store.add(articles, now.getTime());
    bus.publish(articles);
    return articles;
  };

  // Unique per app and cheap: a random prefix and a counter (16 hex digits).
  const idPrefix = Math.floor(Math.random() * 0x100000000)
    .toString(16)
    .padStart(8, '0');
  let requestCount = 0;

  const sessions = new StreamSessions(clock, options.streamMaxLag);
  const router = new Router<RouteDef>();
  const app: MockApp = {
    store,
    clock,
    accounts,
    limiter: new RateLimiter(),
    rateLimited: options.rateLimits !== false,
    // Same seed, same failures: the fault PRNG follows the fixture seed.
    failures: new FailureInjector(options.failRate ?? 0, options.seed ?? store.seed),
    latencyMs: Math.max(0, options.latencyMs ?? 0),
    webhooks,
    deliveries,
    bus,
    sessions,
    router,
    log,
    note,
    engine: () => engine,
    nextRequestId: () => `req_${idPrefix}${(requestCount++ >>> 0).toString(16).padStart(8, '0')}`,
    journal() {
      if (journal === undefined) {
        journal = new StreamJournal(clock, bus, STREAM_MAX_AGE.max * 60_000, (id) =>
          store.article(id),
        );
        started.journal = true;
      }
      return journal;
    },
    indexArticles,
    started,
    close() {
      publisher?.stop();
      journal?.close();
      dispatcher?.stop();
      clock.dispose();
    },
  };

  addApiRoutes(router, () => store);
  addNewsRoutes(
    router,
    () => engine,
    () => store,
    () => ({ bus, journal: app.journal(), sessions }),
    sessions,
  );
  addWebhookRoutes(router, webhooks);
  addAdminRoutes(router, {
    accounts,
    webhooks,
    deliveries,
    indexArticles,
    startDeliveries: deliver,
  });

  if (options.exampleWebhooksFor !== undefined) {
    await deliver();
    seedExampleWebhooks(webhooks, accounts, options.exampleWebhooksFor);
  }
  if (options.publishRate !== undefined && options.publishRate > 0) {
    const { startPublisher } = await import('./publisher.js');
    cap.reserve();
    publisher = startPublisher({
      clock,
      store,
      ratePerMinute: options.publishRate,
      afterId: options.publishAfterId,
      seed: options.seed ?? store.seed,
      published: (articles) => {
        cap.published(articles);
        bus.publish(articles);
      },
    });
    started.publisher = true;
  }
  return app;
}
