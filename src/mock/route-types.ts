/** What a route declares and what its handler receives and returns. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Account, Scope } from './accounts.js';
import type { MockClock } from './clock.js';
import type { Scenario } from './faults.js';

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** `:name` segments of the route pattern, decoded. */
  pathParams: Readonly<Record<string, string>>;
  /**
   * The query string and the JSON body object merged (the body wins on a
   * clash), without `api_key`. Repeated query parameters are joined with
   * commas, the API's list form.
   */
  params: Record<string, unknown>;
  /** The parsed JSON body as sent (arrays included), or undefined. */
  body: unknown;
  /** Present on every route with `auth: 'key'`. */
  account: Account | undefined;
  requestId: string;
  /** The request's `X-Mock-Scenario` when it reaches the handler (only `prompt-unavailable` does). */
  scenario: Scenario | undefined;
  clock: MockClock;
  /** `http://host:port` of this server, for links and paging URLs. */
  baseUrl: string;
  /** Aborted when the client goes away or the server closes. */
  signal: AbortSignal;
  /** The headers every answer carries (CORS, mode, request id, rate limit, points); for streaming routes. */
  responseHeaders(): Record<string, string>;
}

export interface JsonReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Points the answer costs; charged after the work (test keys are never charged). */
  cost?: number;
}

/** The handler wrote the response itself (server-sent events). */
export interface StreamingReply {
  streaming: true;
}

export type Reply = JsonReply | StreamingReply;

export interface RouteDef {
  /** `key`: a valid API key is required (401 ER0201 otherwise); `none`: keys are ignored. */
  auth: 'key' | 'none';
  scope?: Scope;
  /** Costs points: a live key with an empty balance gets 402 before any work is done. */
  metered?: boolean;
  /** Largest accepted body; default API_BODY_LIMIT. */
  bodyLimit?: number;
  /** Admin routes are outside the API: no fault injection, no rate limit. */
  admin?: boolean;
  handler(ctx: RouteContext): Reply | Promise<Reply>;
}
