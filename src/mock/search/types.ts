import type { Polarity } from '../fixtures/article-types.js';

export type { Polarity };

/** Account plans; the engine only needs them for the prompt rule (ER0706). */
export type Plan = 'Free' | 'Starter' | 'Basic' | 'Professional' | 'Corporate';

export type Mode = 'live' | 'test';

/** What the server knows about one request; every answer is deterministic given this and the store. */
export interface SearchContext {
  readonly now: Date;
  readonly mode: Mode;
  readonly plan: Plan;
  /** The plan's per_page ceiling; a larger per_page is capped silently. */
  readonly perPageCap: number;
  readonly path: string;
  readonly requestId: string;
  readonly baseUrl: string;
  /** `X-Mock-Scenario: prompt-unavailable`: the prompt translation service is down (ER0801). */
  readonly promptUnavailable?: boolean;
}

/** Query string and JSON body merged. */
export type Params = Readonly<Record<string, unknown>>;

export interface EngineResult {
  readonly body: Record<string, unknown>;
  /** Points this request costs (0 in test mode). */
  readonly points: number;
}

/**
 * A predicate over indexed articles, by row of the store's table
 * (src/mock/store/table.ts): filters read the columns at that row, never an
 * article object, which keeps a scan of 100,000 articles inside the CPU caches.
 */
export type DocFilter = (row: number) => boolean;
