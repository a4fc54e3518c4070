/**
 * Mock-only administration under /__mock, standing in for the account
 * dashboard: no key, no rate limit, no injected faults. See docs/MOCK.md.
 */
import type { Accounts } from './accounts.js';
import type { DeliveryLog } from './delivery-log.js';
import { MockHttpError } from './error-envelope.js';
import type { Article } from './fixtures/article-types.js';
import { ADMIN_BODY_LIMIT, MAX_POSTED_ARTICLES } from './http-io.js';
import type { Router } from './router.js';
import type { RouteDef } from './route-types.js';
import { type WebhookStore, webhookView } from './webhooks-store.js';

export interface AdminDeps {
  accounts: Accounts;
  webhooks: WebhookStore;
  deliveries: DeliveryLog;
  /** Normalises, indexes and announces posted articles; returns them as indexed. */
  indexArticles(input: unknown): Promise<Article[]>;
  /** Starts the webhook dispatcher (once): before the first subscription, so it misses no article. */
  startDeliveries(): Promise<void>;
}

export function addAdminRoutes(router: Router<RouteDef>, deps: AdminDeps): void {
  router
    .add('POST', '/__mock/webhooks', {
      auth: 'none',
      admin: true,
      handler: async (ctx) => {
        // zod loads here, on first use: every `--mock` run starts the mock, few create webhooks.
        const { parseCreateWebhook } = await import('./webhook-admin-schema.js');
        const body = parseCreateWebhook(ctx.body);
        const account = deps.accounts.get(body.api_key);
        if (account === undefined) {
          throw new MockHttpError(400, undefined, 'api_key must be one of the mock fixture keys.');
        }
        await deps.startDeliveries();
        const created = deps.webhooks.create(account, {
          url: body.url,
          filters: body.filters ?? {},
        });
        // The only answer that ever shows the signing secret.
        return { status: 201, body: { ...webhookView(created), secret: created.secret } };
      },
    })
    .add('POST', '/__mock/webhooks/:id/enable', {
      auth: 'none',
      admin: true,
      handler: (ctx) => ({
        status: 200,
        body: webhookView(deps.webhooks.enable(ctx.pathParams['id']!)),
      }),
    })
    .add('POST', '/__mock/articles', {
      auth: 'none',
      admin: true,
      bodyLimit: ADMIN_BODY_LIMIT,
      handler: async (ctx) => {
        if (Array.isArray(ctx.body) && ctx.body.length > MAX_POSTED_ARTICLES) {
          throw new MockHttpError(
            413,
            undefined,
            `At most ${MAX_POSTED_ARTICLES} articles per request (got ${ctx.body.length}); post them in batches.`,
          );
        }
        const articles = await deps.indexArticles(ctx.body);
        return {
          status: 201,
          body: { status: 'ok', indexed: articles.length, ids: articles.map((a) => a.id) },
        };
      },
    })
    .add('GET', '/__mock/deliveries', {
      auth: 'none',
      admin: true,
      handler: (ctx) => {
        const raw = ctx.params['webhook_id'];
        const id = raw === undefined ? undefined : Number(raw);
        if (id !== undefined && !Number.isInteger(id)) {
          throw new MockHttpError(400, undefined, 'webhook_id must be an integer.');
        }
        return { status: 200, body: { status: 'ok', results: deps.deliveries.list(id) } };
      },
    })
    // Balances and usage of every fixture key, for tests and curious humans.
    .add('GET', '/__mock/accounts', {
      auth: 'none',
      admin: true,
      handler: () => ({
        status: 200,
        body: {
          status: 'ok',
          results: deps.accounts.all().map((a) => ({
            key: a.key,
            plan: a.plan,
            mode: a.mode,
            points: a.points,
            points_used: a.used,
            scopes: [...a.scopes],
          })),
        },
      }),
    });
}
