/**
 * /v1/webhooks — list, get, update, delete; creation happens in the
 * dashboard (the mock's admin route). Managing webhooks is free.
 * Answers: list `{status:'ok', results:[webhook…]}`; get and PATCH the
 * webhook object; DELETE `{status:'ok', id, deleted:true}`. The secret is
 * never shown here.
 */
import { MockHttpError } from './error-envelope.js';
import { isPlainObject } from './http-io.js';
import type { Router } from './router.js';
import type { RouteDef } from './route-types.js';
import { type WebhookStore, webhookView } from './webhooks-store.js';

export function addWebhookRoutes(router: Router<RouteDef>, webhooks: WebhookStore): void {
  router
    .add('GET', '/v1/webhooks', {
      auth: 'key',
      scope: 'webhooks:read',
      handler: (ctx) => ({
        status: 200,
        body: { status: 'ok', results: webhooks.list(ctx.account!).map(webhookView) },
      }),
    })
    .add('GET', '/v1/webhooks/:id', {
      auth: 'key',
      scope: 'webhooks:read',
      handler: (ctx) => ({
        status: 200,
        body: webhookView(webhooks.get(ctx.account!, ctx.pathParams['id']!)),
      }),
    })
    .add('PATCH', '/v1/webhooks/:id', {
      auth: 'key',
      scope: 'webhooks:write',
      handler: (ctx) => {
        if (!isPlainObject(ctx.body)) {
          throw new MockHttpError(
            400,
            undefined,
            'PATCH needs a JSON object with url, filters and/or status.',
          );
        }
        const updated = webhooks.update(ctx.account!, ctx.pathParams['id']!, ctx.body);
        return { status: 200, body: webhookView(updated) };
      },
    })
    .add('DELETE', '/v1/webhooks/:id', {
      auth: 'key',
      scope: 'webhooks:write',
      handler: (ctx) => {
        const deleted = webhooks.delete(ctx.account!, ctx.pathParams['id']!);
        return { status: 200, body: { status: 'ok', id: deleted.id, deleted: true } };
      },
    });
}
