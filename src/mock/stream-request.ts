/**
 * What both stream transports check before they answer: `stream.max_age`
 * (400 ER0363), the balance (402 ER0301), and the search filters, turned into
 * a matcher the same way a search reads them (a bad filter is the same error
 * answer as on search).
 */
import { STREAM_MAX_AGE, parseStreamMaxAge } from '../params/stream-params.js';
import type { Account } from './accounts.js';
import type { NewsEngine, SearchContext } from './engine-adapter.js';
import { MockHttpError } from './error-envelope.js';

export interface StreamRequest {
  filters: Record<string, unknown>;
  maxAgeMs: number;
  /** The filters as of `now`, over indexed articles by id. */
  matcherAt(now: Date): (id: number) => boolean;
}

/** Not filters: the replay position and the key travel as query parameters too. */
const NOT_FILTERS = new Set([STREAM_MAX_AGE.name, 'last_event_id', 'api_key']);

export function streamRequest(
  params: Record<string, unknown>,
  account: Account,
  engine: NewsEngine,
  searchContext: SearchContext,
): StreamRequest {
  let minutes: number = STREAM_MAX_AGE.default;
  const raw = params[STREAM_MAX_AGE.name];
  if (raw !== undefined) {
    const parsed = parseStreamMaxAge(raw);
    if (parsed === undefined) {
      throw new MockHttpError(
        400,
        STREAM_MAX_AGE.code,
        `Invalid stream.max_age "${String(raw)}": minutes from ${STREAM_MAX_AGE.min} to ${STREAM_MAX_AGE.max}.`,
      );
    }
    minutes = parsed;
  }
  if (account.mode === 'live' && account.points <= 0) {
    throw new MockHttpError(402, 'ER0301', 'No points remaining on this API key.');
  }
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (!NOT_FILTERS.has(name)) filters[name] = value;
  }
  // Built now so a bad filter is a normal error answer before the stream
  // starts; rebuilt per batch because search windows end at "now" and the
  // articles to come are newer than the connection.
  const matcherAt = (now: Date) => engine.matcher(filters, { ...searchContext, now });
  matcherAt(searchContext.now);
  return { filters, maxAgeMs: minutes * 60_000, matcherAt };
}
