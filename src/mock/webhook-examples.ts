/**
 * Example subscriptions for `news --mock webhooks …`: the in-process mock
 * starts empty each run, and a webhook can only be created in the dashboard
 * (the admin route), so without these `list`, `get 1` or `pause 1` would have
 * nothing to show. Seeded only when a command asks (Runtime.mockOptions).
 */
import type { Accounts } from './accounts.js';
import type { WebhookStore } from './webhooks-store.js';

export const EXAMPLE_WEBHOOKS = [
  {
    url: 'https://example.com/hooks/news',
    filters: { 'language.code': 'en', 'category.id': 'medtop:04000000' },
    paused: false,
  },
  { url: 'https://example.com/hooks/markets', filters: { title: 'rate cut' }, paused: true },
] as const;

/** Ids 1 and 2 for the key's account (1 active, 2 paused); a plan with room for one gets one. */
export function seedExampleWebhooks(store: WebhookStore, accounts: Accounts, key: string): void {
  const account = accounts.get(key);
  if (account === undefined) return;
  for (const example of EXAMPLE_WEBHOOKS) {
    try {
      const created = store.create(account, { url: example.url, filters: { ...example.filters } });
      if (example.paused) created.status = 'paused';
    } catch {
      // The plan's webhook limit (Free: 1) is reached: fewer examples.
      return;
    }
  }
}
