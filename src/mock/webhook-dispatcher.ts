/**
 * The mock's webhook dispatcher, per the specification's Events section:
 * every batch of newly indexed articles (the article bus) is matched against
 * each active subscription's filters with the search engine's own matcher,
 * and the matches go out as `articles.new` POSTs of at most 100 articles,
 * signed with the subscription's secret (src/params/webhook-signature.ts).
 *
 * Decisions where the specification is silent (docs/MOCK.md, "Webhook
 * dispatcher"):
 * - Attempts: the first at once; after a failed attempt N (N < 5) the next
 *   one waits RETRY_DELAYS_MIN[N-1] mock minutes; the fifth failure marks the
 *   delivery `failed`. The table's fifth row (12 h) is the wait a manual
 *   re-send would follow; five attempts are all the spec allows.
 * - X-Webhook-Delivery-Id is the same for every attempt of one batch: the
 *   spec tells receivers to de-duplicate retries with it.
 * - X-Webhook-Timestamp is wall-clock Unix seconds (a receiver checks it
 *   against its own clock); `delivered_at` and the log use the mock clock.
 * - The 30 s timeout runs on the mock clock, but never below
 *   MIN_TIMEOUT_WALL_MS of wall time, so a healthy receiver on a busy machine
 *   is not failed by a small `--time-scale`.
 * - A retry that comes due while its subscription is paused, disabled or
 *   deleted is dropped (nothing sent, nothing logged): deliveries stop.
 * - A live key with no points left gets no new deliveries.
 */
import { randomHex } from './node-crypto.js';
import { WEBHOOK_HEADERS, signWebhook } from '../params/webhook-signature.js';
import type { Accounts } from './accounts.js';
import type { ArticleBus } from './article-bus.js';
import type { MockClock, MockTimer } from './clock.js';
import type { DeliveryAttempt, DeliveryLog } from './delivery-log.js';
import type { NewsEngine, SearchContext } from './engine-adapter.js';
import type { Article } from './fixtures/article-types.js';
import { PLAN_LIMITS } from './accounts.js';
import { testModeArticle } from './search/test-mode.js';
import type { Webhook, WebhookStore } from './webhooks-store.js';

/** Spec: at most 100 articles per request. */
export const MAX_BATCH = 100;
/** Spec: no answer within 30 seconds is a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 30_000;
/** Spec: after 5 failed attempts the delivery is failed. */
export const MAX_ATTEMPTS = 5;
/** Spec's retry table, mock minutes: the wait after failed attempt 1, 2, … */
export const RETRY_DELAYS_MIN: readonly number[] = [1, 5, 30, 120, 720];
/** Spec: 3 consecutive failed deliveries disable the subscription. */
export const DISABLE_AFTER_FAILURES = 3;
export const MIN_TIMEOUT_WALL_MS = 500;
/** Answers are read and discarded beyond this; a receiver's 2xx is what counts. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface DispatcherOptions {
  bus: ArticleBus;
  webhooks: WebhookStore;
  accounts: Accounts;
  deliveries: DeliveryLog;
  clock: MockClock;
  engine: () => NewsEngine;
  /** An indexed article by id, made again for a retry (a pending delivery keeps ids only). */
  article: (id: number) => Article | undefined;
  baseUrl: () => string;
  log?: ((line: string) => void) | undefined;
}

export interface Dispatcher {
  /** Deliveries with an attempt in flight or a retry scheduled. */
  readonly pending: number;
  stop(): void;
}

interface Delivery {
  id: string;
  webhookId: number;
  ids: readonly number[];
  /** The articles themselves for the first attempt (in hand when announced); retries make them again. */
  articles: readonly Article[] | undefined;
  attempt: number;
}

export function startWebhookDispatcher(options: DispatcherOptions): Dispatcher {
  const { clock, webhooks, deliveries, log } = options;
  const timers = new Set<MockTimer>();
  const inFlight = new Set<() => void>();
  let pending = 0;
  let stopped = false;

  const matchersFor = (webhook: Webhook): ((id: number) => boolean) | undefined => {
    const account = options.accounts.get(webhook.apiKey);
    if (account === undefined) return undefined;
    const context: SearchContext = {
      now: clock.now(),
      mode: account.mode,
      plan: account.plan,
      perPageCap: PLAN_LIMITS[account.plan].perPage,
      path: '/v1/webhooks',
      requestId: `whk_${webhook.id}`,
      baseUrl: options.baseUrl(),
    };
    try {
      return options.engine().matcher(webhook.filters, context);
    } catch (error) {
      // Filters the service would refuse (a 31-day title window, …): the
      // subscription matches nothing rather than everything.
      log?.(`webhook ${webhook.id}: filters refused (${errorText(error)}); nothing delivered`);
      return undefined;
    }
  };

  const onArticles = (articles: readonly Article[]): void => {
    if (stopped) return;
    for (const webhook of webhooks.all()) {
      if (webhook.status !== 'active') continue;
      const account = options.accounts.get(webhook.apiKey);
      if (account === undefined || (account.mode === 'live' && account.points <= 0)) continue;
      // Only what was indexed after the subscription was created: a new
      // subscription starts with the latest articles.
      const matches = matchersFor(webhook);
      if (matches === undefined) continue;
      const selected = articles.filter((a) => matches(a.id));
      for (let i = 0; i < selected.length; i += MAX_BATCH) {
        const batch = selected.slice(i, i + MAX_BATCH);
        pending += 1;
        void attempt({
          id: `dlv_${randomHex(12)}`,
          webhookId: webhook.id,
          ids: batch.map((a) => a.id),
          articles: batch,
          attempt: 1,
        });
      }
    }
  };

  const finish = (): void => {
    pending -= 1;
  };

  const attempt = async (delivery: Delivery): Promise<void> => {
    const webhook = webhooks.all().find((w) => w.id === delivery.webhookId);
    if (stopped || webhook === undefined || webhook.status !== 'active') {
      finish();
      return;
    }
    const account = options.accounts.get(webhook.apiKey);
    const test = account?.mode === 'test';
    const sentAt = clock.now();
    const articles =
      delivery.articles ??
      delivery.ids.map(options.article).filter((a): a is Article => a !== undefined);
    const body = JSON.stringify({
      event: 'articles.new',
      webhook_id: webhook.id,
      delivered_at: sentAt.toISOString(),
      articles: test ? articles.map(testModeArticle) : articles,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'news-mock-webhooks/1',
      [WEBHOOK_HEADERS.signature]: signWebhook(webhook.secret, timestamp, body),
      [WEBHOOK_HEADERS.id]: String(webhook.id),
      [WEBHOOK_HEADERS.deliveryId]: delivery.id,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    };
    const started = performance.now();
    const result = await post(webhook.url, headers, body);
    if (stopped) {
      finish();
      return;
    }
    const durationMs = Math.round(performance.now() - started);
    const delivered = result.status !== null && result.status >= 200 && result.status < 300;
    const entry: DeliveryAttempt = {
      delivery_id: delivery.id,
      webhook_id: webhook.id,
      attempt: delivery.attempt,
      sent_at: sentAt.toISOString(),
      status: result.status,
      outcome: 'delivered',
      error: null,
      duration_ms: durationMs,
      article_ids: articles.map((a) => a.id),
      next_attempt_at: null,
      points: 0,
    };
    if (delivered) {
      entry.points = account?.charge(articles.length) ?? 0;
      webhook.consecutiveFailures = 0;
      deliveries.record(entry);
      finish();
      return;
    }
    entry.error = result.error ?? `HTTP ${result.status}`;
    if (delivery.attempt < MAX_ATTEMPTS) {
      const delayMs = RETRY_DELAYS_MIN[delivery.attempt - 1]! * 60_000;
      entry.outcome = 'retry_scheduled';
      entry.next_attempt_at = new Date(clock.nowMs() + delayMs).toISOString();
      deliveries.record(entry);
      const timer = clock.setTimeout(() => {
        timers.delete(timer);
        void attempt({ ...delivery, articles: undefined, attempt: delivery.attempt + 1 });
      }, delayMs);
      timers.add(timer);
      return;
    }
    entry.outcome = 'failed';
    deliveries.record(entry);
    webhook.consecutiveFailures += 1;
    if (webhook.consecutiveFailures >= DISABLE_AFTER_FAILURES && webhook.status === 'active') {
      webhook.status = 'disabled';
      webhook.updatedAt = clock.now();
      log?.(
        `webhook ${webhook.id} disabled after ${webhook.consecutiveFailures} consecutive failed deliveries`,
      );
    }
    finish();
  };

  /** One POST; never rejects. `status` null when the receiver did not answer in time or at all. */
  const post = async (
    url: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<{ status: number | null; error?: string }> => {
    const target = new URL(url);
    // Loaded with the first delivery: a mock that never delivers never loads them.
    const { request: send } =
      target.protocol === 'https:' ? await import('node:https') : await import('node:http');
    return new Promise((resolve) => {
      let settled = false;
      const done = (result: { status: number | null; error?: string }): void => {
        if (settled) return;
        settled = true;
        timer.cancel();
        clearTimeout(floor);
        inFlight.delete(abort);
        resolve(result);
      };
      const req = send(target, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        // A fresh connection per attempt: nothing pooled outlives the mock.
        agent: false,
      });
      // Timed out only when both the scaled 30 s and the wall-clock floor have passed.
      let scaledOver = false;
      let floorOver = false;
      const timeout = (): void => {
        if (!scaledOver || !floorOver) return;
        req.destroy();
        done({ status: null, error: 'timeout' });
      };
      const timer = clock.setTimeout(() => {
        scaledOver = true;
        timeout();
      }, DELIVERY_TIMEOUT_MS);
      const floor = setTimeout(() => {
        floorOver = true;
        timeout();
      }, MIN_TIMEOUT_WALL_MS);
      const abort = (): void => {
        req.destroy();
        done({ status: null, error: 'mock server closed' });
      };
      inFlight.add(abort);
      req.on('response', (res) => {
        const status = res.statusCode ?? null;
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('end', () => done({ status }));
        res.on('close', () => done({ status }));
        res.on('error', () => done({ status }));
      });
      req.on('error', (error: NodeJS.ErrnoException) =>
        done({ status: null, error: error.code ?? error.message }),
      );
      req.end(body);
    });
  };

  const unsubscribe = options.bus.subscribe(onArticles);

  return {
    get pending() {
      return pending;
    },
    stop() {
      stopped = true;
      unsubscribe();
      for (const timer of timers) timer.cancel();
      timers.clear();
      for (const abort of [...inFlight]) abort();
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
