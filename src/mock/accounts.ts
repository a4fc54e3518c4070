/**
 * The fixture accounts of the contract (one key each), how a request names its
 * key, scopes and the points balance. State is in memory and per server, so
 * every test that starts a server starts with full balances.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { MockHttpError } from './error-envelope.js';

export type Plan = 'Free' | 'Starter' | 'Basic' | 'Professional';
export type Mode = 'live' | 'test';

/**
 * The spec names only the webhook scopes. `news:read` is the mock's name for
 * "everything else with data" (news, suggest, directories), so that the
 * readonly key — `webhooks:read` only in the contract — is refused there.
 */
export type Scope = 'news:read' | 'webhooks:read' | 'webhooks:write';
export const ALL_SCOPES: readonly Scope[] = ['news:read', 'webhooks:read', 'webhooks:write'];

export interface AccountSpec {
  key: string;
  plan: Plan;
  mode: Mode;
  points: number;
  scopes: readonly Scope[];
}

/** The contract's "Fixture accounts" table, verbatim. */
export const FIXTURE_ACCOUNTS: readonly AccountSpec[] = [
  { key: 'api_live_mock_free', plan: 'Free', mode: 'live', points: 1000, scopes: ALL_SCOPES },
  {
    key: 'api_live_mock_starter',
    plan: 'Starter',
    mode: 'live',
    points: 10000,
    scopes: ALL_SCOPES,
  },
  { key: 'api_live_mock_basic', plan: 'Basic', mode: 'live', points: 100000, scopes: ALL_SCOPES },
  {
    key: 'api_live_mock_pro',
    plan: 'Professional',
    mode: 'live',
    points: 1000000,
    scopes: ALL_SCOPES,
  },
  { key: 'api_test_mock_basic', plan: 'Basic', mode: 'test', points: 100000, scopes: ALL_SCOPES },
  { key: 'api_live_mock_empty', plan: 'Basic', mode: 'live', points: 0, scopes: ALL_SCOPES },
  {
    key: 'api_live_mock_readonly',
    plan: 'Basic',
    mode: 'live',
    points: 100000,
    scopes: ['webhooks:read'],
  },
];

/** The key `--mock` uses when none is given. */
export const DEFAULT_MOCK_KEY = 'api_live_mock_pro';

/** Per-plan figures from the spec's Limits table (per_page ceiling, webhooks per account). */
export const PLAN_LIMITS: Readonly<Record<Plan, { perPage: number; webhooks: number }>> = {
  Free: { perPage: 10, webhooks: 1 },
  Starter: { perPage: 50, webhooks: 5 },
  Basic: { perPage: 200, webhooks: 5 },
  // The spec gives no Professional ceiling: it gets the global maximum.
  Professional: { perPage: 250, webhooks: 20 },
};

export class Account {
  readonly key: string;
  readonly plan: Plan;
  readonly mode: Mode;
  readonly scopes: ReadonlySet<Scope>;
  private balance: number;
  private spent = 0;

  constructor(spec: AccountSpec) {
    this.key = spec.key;
    this.plan = spec.plan;
    this.mode = spec.mode;
    this.scopes = new Set(spec.scopes);
    this.balance = spec.points;
  }

  get points(): number {
    return this.balance;
  }

  /** Total points charged since the server started. */
  get used(): number {
    return this.spent;
  }

  /**
   * Takes up to `cost` points and returns what was actually taken. Test keys
   * never pay. A request admitted with a positive balance is answered even if
   * it costs more than what is left; the balance then stops at 0.
   */
  charge(cost: number): number {
    if (this.mode === 'test' || cost <= 0) return 0;
    const taken = Math.min(this.balance, Math.ceil(cost));
    this.balance -= taken;
    this.spent += taken;
    return taken;
  }

  /** Checked before the work, so an exhausted key costs the server nothing. */
  assertCanSpend(): void {
    if (this.mode === 'live' && this.balance <= 0) {
      throw new MockHttpError(
        402,
        undefined,
        'No points remaining on this API key. Top up your balance.',
      );
    }
  }

  assertScope(scope: Scope): void {
    if (!this.scopes.has(scope)) {
      throw new MockHttpError(403, undefined, `This API key lacks the scope ${scope}.`);
    }
  }
}

export class Accounts {
  private readonly byKey = new Map<string, Account>();

  constructor(specs: readonly AccountSpec[] = FIXTURE_ACCOUNTS) {
    for (const spec of specs) this.byKey.set(spec.key, new Account(spec));
  }

  get(key: string): Account | undefined {
    return this.byKey.get(key);
  }

  all(): Account[] {
    return [...this.byKey.values()];
  }
}

export type KeySource = 'header' | 'bearer' | 'query';

export interface PresentedKey {
  key: string;
  source: KeySource;
}

/**
 * The key a request presents. The spec leaves the winner open when several
 * are sent; the mock takes the most explicit, least leaky one first:
 * `X-API-Key`, then `Authorization: Bearer`, then the `api_key` query
 * parameter. The winner alone is checked — an invalid `X-API-Key` is a 401
 * even when a valid `api_key` is also in the URL.
 */
export function presentedKey(
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
): PresentedKey | undefined {
  const header = headers['x-api-key'];
  const headerKey = (Array.isArray(header) ? header[0] : header)?.trim();
  if (headerKey) return { key: headerKey, source: 'header' };
  const auth = headers.authorization?.trim();
  const bearer = auth === undefined ? undefined : /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
  if (bearer) return { key: bearer, source: 'bearer' };
  const queryKey = query.get('api_key')?.trim();
  if (queryKey) return { key: queryKey, source: 'query' };
  return undefined;
}

/**
 * The mode a response reports before (or without) a valid key: the key's
 * prefix decides, so even a 401 for `api_test_…` says `test`.
 */
export function modeOfKey(key: string | undefined): Mode {
  return key?.startsWith('api_test_') ? 'test' : 'live';
}

export function authenticate(accounts: Accounts, presented: PresentedKey | undefined): Account {
  if (presented === undefined) {
    throw new MockHttpError(
      401,
      'ER0201',
      'API key is missing. Send it in the X-API-Key header, as Authorization: Bearer <key>, or as api_key.',
    );
  }
  const account = accounts.get(presented.key);
  if (account === undefined) throw new MockHttpError(401, 'ER0201', 'Invalid API key.');
  return account;
}

/** `api_live_…_free` style: enough to recognise a key, never the whole key. */
export function maskKey(key: string): string {
  const prefix = /^api_(live|test)_/.exec(key)?.[0] ?? '';
  return `${prefix}…${key.slice(-4)}`;
}
