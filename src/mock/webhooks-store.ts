/**
 * Webhook subscriptions in memory, scoped to the account of the key. The
 * state rules are the spec's table: PATCH moves active ↔ paused only; a
 * disabled subscription (three failed deliveries in a row) comes back through
 * the dashboard alone, which the mock stands in for with
 * `POST /__mock/webhooks/{id}/enable`.
 */
import { type Account, PLAN_LIMITS, maskKey } from './accounts.js';
import type { MockClock } from './clock.js';
import { MockHttpError } from './error-envelope.js';
import { randomHex } from './node-crypto.js';

export type WebhookStatus = 'active' | 'paused' | 'disabled';

export interface Webhook {
  id: number;
  /** The key deliveries are billed to (and whose account owns the subscription). */
  apiKey: string;
  url: string;
  filters: Record<string, unknown>;
  status: WebhookStatus;
  secret: string;
  createdAt: Date;
  updatedAt: Date;
  /** Failed deliveries in a row; the third disables the subscription. */
  consecutiveFailures: number;
}

/** The shape the API answers with: everything but the secret. */
export interface WebhookView {
  id: number;
  url: string;
  filters: Record<string, unknown>;
  status: WebhookStatus;
  api_key: string;
  mode: 'live' | 'test';
  consecutive_failures: number;
  created_at: string;
  updated_at: string;
}

export interface WebhookPatch {
  url?: unknown;
  filters?: unknown;
  status?: unknown;
}

export class WebhookStore {
  private readonly byId = new Map<number, Webhook>();
  private nextId = 1;

  constructor(private readonly clock: MockClock) {}

  create(account: Account, input: { url: unknown; filters: unknown }): Webhook {
    const owned = this.list(account).length;
    const max = PLAN_LIMITS[account.plan].webhooks;
    if (owned >= max) {
      throw new MockHttpError(
        403,
        undefined,
        `The ${account.plan} plan allows ${max} webhook${max === 1 ? '' : 's'}; this account has ${owned}.`,
      );
    }
    const now = this.clock.now();
    const webhook: Webhook = {
      id: this.nextId++,
      apiKey: account.key,
      url: checkUrl(input.url),
      filters: checkFilters(input.filters ?? {}),
      status: 'active',
      secret: `whsec_${randomHex(24)}`,
      createdAt: now,
      updatedAt: now,
      consecutiveFailures: 0,
    };
    this.byId.set(webhook.id, webhook);
    return webhook;
  }

  list(account: Account): Webhook[] {
    return [...this.byId.values()].filter((w) => w.apiKey === account.key);
  }

  /** Every subscription of every account (for the dispatcher). */
  all(): Webhook[] {
    return [...this.byId.values()];
  }

  /** Another account's subscription is "not found", so ids do not leak across accounts. */
  get(account: Account, id: string | number): Webhook {
    const webhook = this.byId.get(Number(id));
    if (webhook === undefined || webhook.apiKey !== account.key) throw notFound(id);
    return webhook;
  }

  /** For the admin routes, which act for the dashboard of any account. */
  getAny(id: string | number): Webhook {
    const webhook = this.byId.get(Number(id));
    if (webhook === undefined) throw notFound(id);
    return webhook;
  }

  update(account: Account, id: string, patch: WebhookPatch): Webhook {
    const webhook = this.get(account, id);
    // Validate everything before changing anything: a PATCH applies whole or not at all.
    const url = patch.url === undefined ? undefined : checkUrl(patch.url);
    const filters = patch.filters === undefined ? undefined : checkFilters(patch.filters);
    let status: WebhookStatus | undefined;
    if (patch.status !== undefined) {
      if (patch.status !== 'active' && patch.status !== 'paused') {
        throw new MockHttpError(400, undefined, 'status must be "active" or "paused".');
      }
      if (webhook.status === 'disabled') {
        throw new MockHttpError(
          409,
          undefined,
          'This webhook was disabled after 3 consecutive failed deliveries; re-enable it in the dashboard ' +
            `(mock: POST /__mock/webhooks/${webhook.id}/enable).`,
        );
      }
      status = patch.status;
    }
    if (url !== undefined) webhook.url = url;
    if (filters !== undefined) webhook.filters = filters;
    if (status !== undefined) webhook.status = status;
    webhook.updatedAt = this.clock.now();
    return webhook;
  }

  delete(account: Account, id: string): Webhook {
    const webhook = this.get(account, id);
    this.byId.delete(webhook.id);
    return webhook;
  }

  /** Dashboard re-enable: disabled → active with a clean failure count; already active is a no-op. */
  enable(id: string): Webhook {
    const webhook = this.getAny(id);
    if (webhook.status === 'paused') {
      throw new MockHttpError(
        409,
        undefined,
        'This webhook is paused by its owner, not disabled; resume it with PATCH status "active".',
      );
    }
    if (webhook.status === 'disabled') {
      webhook.status = 'active';
      webhook.consecutiveFailures = 0;
      webhook.updatedAt = this.clock.now();
    }
    return webhook;
  }
}

export function webhookView(webhook: Webhook): WebhookView {
  return {
    id: webhook.id,
    url: webhook.url,
    filters: webhook.filters,
    status: webhook.status,
    api_key: maskKey(webhook.apiKey),
    mode: webhook.apiKey.startsWith('api_test_') ? 'test' : 'live',
    consecutive_failures: webhook.consecutiveFailures,
    created_at: webhook.createdAt.toISOString(),
    updated_at: webhook.updatedAt.toISOString(),
  };
}

function notFound(id: string | number): MockHttpError {
  return new MockHttpError(404, undefined, `Webhook ${id} not found.`);
}

function checkUrl(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new MockHttpError(
      400,
      undefined,
      'url is required: the http(s) address deliveries are sent to.',
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new MockHttpError(400, undefined, `url is not a valid URL: ${value}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new MockHttpError(400, undefined, `url must be http or https, got ${parsed.protocol}`);
  }
  return value;
}

/** Filters are search parameters; like search, unknown names are kept and ignored. */
function checkFilters(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MockHttpError(400, undefined, 'filters must be an object of search parameters.');
  }
  return { ...(value as Record<string, unknown>) };
}
