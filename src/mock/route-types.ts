/** What a route declares and what its handler receives and returns. */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Account, Scope } from './accounts.js';
import type { MockClock } from './clock.js';
import type { Scenario } from './faults.js';

/** What every handler gets, over HTTP or in-process alike. */
export interface RequestContext {
  /** The request's headers, names in lower case. */
  headers: IncomingHttpHeaders;
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

/** A streaming route's context: the connection too, since the handler writes the answer itself. */
export interface RouteContext extends RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
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

interface RouteBase {
  /** `key`: a valid API key is required (401 ER0201 otherwise); `none`: keys are ignored. */
  auth: 'key' | 'none';
  scope?: Scope;
  /** Costs points: a live key with an empty balance gets 402 before any work is done. */
  metered?: boolean;
  /** Largest accepted body; default API_BODY_LIMIT. */
  bodyLimit?: number;
  /** Admin routes are outside the API: no fault injection, no rate limit. */
  admin?: boolean;
}

export interface PlainRoute extends RouteBase {
  stream?: false;
  handler(ctx: RequestContext): JsonReply | Promise<JsonReply>;
}

/** A route that answers over the connection itself (the SSE stream): served over HTTP only. */
export interface StreamRoute extends RouteBase {
  stream: true;
  handler(ctx: RouteContext): Reply | Promise<Reply>;
}

export type RouteDef = PlainRoute | StreamRoute;
