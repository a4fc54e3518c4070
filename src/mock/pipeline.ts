/**
 * The mock's request pipeline, whatever carries the request (the HTTP
 * server, server.ts, or the in-process dispatcher, in-process.ts). In order,
 * each step able to answer early:
 *   latency → OPTIONS preflight → X-Mock-Scenario → fail-rate → route →
 *   key (401) → rate limit (429) → scope (403) → body (400/413) →
 *   points check (402) → handler → charge.
 * Every answer, errors included, carries CORS, x-service-mode, X-Request-Id,
 * X-RateLimit-* and (when the key is known) X-Points-* headers.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type Account, authenticate, modeOfKey, presentedKey } from './accounts.js';
import type { MockApp } from './app.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { MockHttpError, errorEnvelope } from './error-envelope.js';
import {
  SLOW_SCENARIO_MS,
  type Scenario,
  TooManyRequests,
  parseScenario,
  serverFault,
} from './faults.js';
import { API_BODY_LIMIT, isPlainObject, parseJson } from './http-io.js';
import { encodeJsonParts } from './json-body.js';
import { assertJsonDepth } from './json-limits.js';
import {
  ANONYMOUS_RATE_LIMIT,
  type RateState,
  rateLimitFor,
  rateLimitHeaders,
} from './rate-limit.js';
import type { RequestContext } from './route-types.js';

export interface MockRequest {
  method: string;
  /** The request target: path and query string. */
  target: string;
  /** Names in lower case. */
  headers: IncomingHttpHeaders;
  /** The body as text; more than `limit` bytes is a 413. */
  readBody(limit: number): Promise<string>;
  /** Aborted when the client goes away or the server closes. */
  signal: AbortSignal;
  /** The connection, over HTTP: a streaming route answers on it. */
  connection?: { req: IncomingMessage; res: ServerResponse };
}

export type MockAnswer =
  | {
      kind: 'answer';
      status: number;
      headers: Record<string, string>;
      /** The body's bytes in pieces, sent one after the other (json-body.ts). */
      body: Buffer[] | undefined;
    }
  /** Cut the connection without an answer (`X-Mock-Scenario: reset`). */
  | { kind: 'reset' }
  /** Never answer (`X-Mock-Scenario: timeout`): the client's own timeout has to fire. */
  | { kind: 'hold' }
  /** The client left or the server is closing: nobody to answer. */
  | { kind: 'gone' }
  /** A streaming route answered on the connection itself. */
  | { kind: 'streamed' };

/** The request target's URL, and whether the target could be read as one. */
export function targetUrl(target: string, baseUrl: string): { url: URL; readable: boolean } {
  // Node's parser lets through targets URL cannot read (`GET http://[::1 HTTP/1.1`): a 400, never silence.
  const readable = URL.canParse(target, baseUrl);
  return { url: new URL(readable ? target : '/', baseUrl), readable };
}

export async function handleRequest(
  app: MockApp,
  request: MockRequest,
  baseUrl: string,
): Promise<MockAnswer> {
  // process.hrtime: `performance` would load Node's perf_hooks on the first request.
  const started = process.hrtime.bigint();
  const requestId = app.nextRequestId();
  const { url, readable } = targetUrl(request.target, baseUrl);
  const { method, signal } = request;
  const presented = presentedKey(request.headers, url.searchParams);
  let account: Account | undefined =
    presented === undefined ? undefined : app.accounts.get(presented.key);
  let rate: RateState | undefined;
  let pointsUsed = 0;

  const headers = (): Record<string, string> => {
    const h: Record<string, string> = {
      ...corsHeaders(),
      'x-request-id': requestId,
      'x-service-mode': account?.mode ?? modeOfKey(presented?.key),
      ...rateLimitHeaders(
        rate ??
          (account === undefined
            ? app.limiter.peek('anonymous', ANONYMOUS_RATE_LIMIT)
            : app.limiter.peek(account.key, rateLimitFor(account.plan, account.mode))),
      ),
    };
    if (account !== undefined) {
      h['x-points-remaining'] = String(account.points);
      h['x-points-used'] = String(pointsUsed);
    }
    return h;
  };
  const answer = (
    status: number,
    body: unknown,
    extra: Record<string, string> = {},
  ): MockAnswer => {
    const out: Record<string, string> = { ...headers(), ...extra };
    let bytes: Buffer[] | undefined;
    if (body !== undefined) {
      // Encoded once: the length is the bytes'.
      bytes = encodeJsonParts(body);
      let length = 0;
      for (const part of bytes) length += part.length;
      out['content-type'] = 'application/json; charset=utf-8';
      out['content-length'] = String(length);
    }
    app.log?.(
      `${method} ${url.pathname} ${status} ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)}ms ${requestId}`,
    );
    return { kind: 'answer', status, headers: out, body: bytes };
  };

  try {
    if (!readable) {
      throw new MockHttpError(400, undefined, 'The request target is not a readable URL.');
    }
    if (app.latencyMs > 0) {
      const { setTimeout: wallSleep } = await import('node:timers/promises');
      await wallSleep(app.latencyMs, undefined, { signal });
    }

    if (method === 'OPTIONS') return answer(204, undefined, preflightHeaders(request.headers));

    const found = app.router.match(method, url.pathname);
    const admin = found.kind === 'found' && found.match.route.admin === true;

    let scenario: Scenario | undefined;
    if (!admin) {
      scenario = parseScenario(request.headers['x-mock-scenario']);
      if (scenario === '500' || scenario === '502')
        throw serverFault(Number(scenario) as 500 | 502, 'X-Mock-Scenario');
      if (scenario === '429') {
        throw new TooManyRequests(
          'Rate limit exceeded (X-Mock-Scenario). Retry after 1 second.',
          1,
        );
      }
      if (scenario === 'reset') return { kind: 'reset' };
      if (scenario === 'timeout') return { kind: 'hold' };
      if (scenario === 'slow') await app.clock.sleep(SLOW_SCENARIO_MS, signal);
      const fault = app.failures.next();
      if (fault !== undefined) throw serverFault(fault, '--fail-rate');
    }

    if (found.kind === 'not-found')
      throw new MockHttpError(404, undefined, `No route for ${url.pathname}.`);
    if (found.kind === 'method-not-allowed') {
      return answer(
        405,
        errorEnvelope(
          new MockHttpError(405, undefined, `${method} is not allowed on ${url.pathname}.`),
          requestId,
          app.clock.now(),
        ),
        { allow: [...found.allow, 'OPTIONS'].join(', ') },
      );
    }
    const { route, params: pathParams } = found.match;

    if (route.auth === 'key') {
      account = authenticate(app.accounts, presented);
      const limit = rateLimitFor(account.plan, account.mode);
      const taken = app.rateLimited
        ? app.limiter.take(account.key, limit)
        : { allowed: true, state: app.limiter.peek(account.key, limit) };
      rate = taken.state;
      if (!taken.allowed) {
        throw new TooManyRequests(
          `Rate limit of ${rate.limit} requests per minute exceeded.`,
          rate.resetSeconds,
        );
      }
      if (route.scope !== undefined) account.assertScope(route.scope);
    } else if (route.admin) {
      // Admin answers describe no key, whatever the request carried.
      account = undefined;
    }

    let body: unknown;
    if (method !== 'GET') {
      body = parseJson(await request.readBody(route.bodyLimit ?? API_BODY_LIMIT));
      assertJsonDepth(body);
    }
    const params = mergeParams(url.searchParams, body);

    if (route.metered) account?.assertCanSpend();

    const ctx: RequestContext = {
      headers: request.headers,
      url,
      pathParams,
      params,
      body,
      account,
      requestId,
      scenario,
      clock: app.clock,
      baseUrl,
      signal,
      responseHeaders: headers,
    };
    if (route.stream) {
      const { connection } = request;
      if (connection === undefined) {
        throw new MockHttpError(
          501,
          undefined,
          'Streams need a connection: the in-process mock does not serve them (start `news mock serve`).',
        );
      }
      const reply = await route.handler({ ...ctx, ...connection });
      if ('streaming' in reply) {
        app.log?.(`${method} ${url.pathname} 200 stream ${requestId}`);
        return { kind: 'streamed' };
      }
      if (account !== undefined && reply.cost !== undefined)
        pointsUsed = account.charge(reply.cost);
      return answer(reply.status, reply.body, reply.headers);
    }
    const reply = await route.handler(ctx);
    if (account !== undefined && reply.cost !== undefined) pointsUsed = account.charge(reply.cost);
    return answer(reply.status, reply.body, reply.headers);
  } catch (error) {
    if (signal.aborted && !(error instanceof MockHttpError)) return { kind: 'gone' };
    const known =
      error instanceof MockHttpError
        ? error
        : new MockHttpError(500, undefined, 'Internal mock server error.');
    if (!(error instanceof MockHttpError))
      app.log?.(
        `mock server error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    return answer(
      known.status,
      errorEnvelope(known, requestId, app.clock.now()),
      known instanceof TooManyRequests ? { 'retry-after': String(known.retryAfterSeconds) } : {},
    );
  }
}

/**
 * Query string first, then the JSON body object on top. Repeated query
 * parameters become one comma-separated list, the API's list form.
 */
function mergeParams(query: URLSearchParams, body: unknown): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const name of new Set(query.keys())) {
    if (name === 'api_key') continue;
    params[name] = query.getAll(name).join(',');
  }
  if (isPlainObject(body)) {
    for (const [name, value] of Object.entries(body)) if (name !== 'api_key') params[name] = value;
  }
  return params;
}
