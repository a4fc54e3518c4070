/** /ping, /v1/balance, the suggest endpoints and the directories. */
import { maskKey } from './accounts.js';
import { type DirectoryKind, directoryProfile, listDirectory } from './directories.js';
import type { FixtureStore } from './store/fixture-store.js';
import type { Router } from './router.js';
import type { RouteDef } from './route-types.js';
import { type SuggestKind, suggest } from './suggest.js';

export function addApiRoutes(router: Router<RouteDef>, store: () => FixtureStore): void {
  // The spec leaves it open whether /ping needs a key; a health check that
  // works without credentials is what monitors expect, so it does not.
  router.add('GET', '/ping', { auth: 'none', handler: () => ({ status: 200, body: 'pong' }) });

  // Every key may read its own balance, whatever its scopes, and it is free.
  router.add('GET', '/v1/balance', {
    auth: 'key',
    handler: (ctx) => {
      const account = ctx.account!;
      return {
        status: 200,
        // Plan names in lower case, as in the OpenAPI example ("professional").
        body: {
          api_key: maskKey(account.key),
          points: account.points,
          plan: account.plan.toLowerCase(),
        },
      };
    },
  });

  for (const kind of [
    'entities',
    'categories',
    'topics',
    'industries',
  ] as const satisfies readonly SuggestKind[]) {
    router.add('GET', `/v1/suggest/${kind}`, {
      auth: 'key',
      scope: 'news:read',
      handler: (ctx) => ({ status: 200, body: suggest(store(), kind, ctx.params['prefix']) }),
    });
  }

  for (const kind of [
    'people',
    'companies',
    'journalists',
  ] as const satisfies readonly DirectoryKind[]) {
    router.add('GET', `/v1/${kind}`, {
      auth: 'key',
      scope: 'news:read',
      metered: true,
      handler: (ctx) => listDirectory(store(), kind, ctx),
    });
    router.add('GET', `/v1/${kind}/:id`, {
      auth: 'key',
      scope: 'news:read',
      metered: true,
      handler: (ctx) => directoryProfile(store(), kind, ctx),
    });
  }
}
