/**
 * The mock API server: a real `node:http` server on loopback serving the
 * whole specification from fixture data. `startMockServer` is what
 * `news mock serve`, the live commands of `--mock` (streams, webhooks
 * listen) and the tests call; docs/MOCK.md is the user's guide. This file is
 * the transport and its lifecycle: the requests go through the pipeline
 * (pipeline.ts) over the app (app.ts), as the in-process mock's do.
 */
import { type IncomingMessage, type Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { modeOfKey, presentedKey } from './accounts.js';
import type { Accounts } from './accounts.js';
import { type MockApp, type MockAppOptions, createMockApp } from './app.js';
import type { ArticleBus } from './article-bus.js';
import type { MockClock } from './clock.js';
import { corsHeaders } from './cors.js';
import type { DeliveryLog } from './delivery-log.js';
import { MockHttpError, errorEnvelope } from './error-envelope.js';
import type { Article } from './fixtures/article-types.js';
import { endRaw, readBody } from './http-io.js';
import { WEBSOCKET_MESSAGE } from './news-routes.js';
import { type MockRequest, handleRequest } from './pipeline.js';
import { ANONYMOUS_RATE_LIMIT, rateLimitHeaders } from './rate-limit.js';
import type { FixtureStore } from './store/fixture-store.js';
import { preloadArticles } from './store/load.js';
import type { StreamSessions } from './stream-sessions.js';
import type { WsEndpoint } from './stream-ws.js';
import { WS_PATH, reject as rejectUpgrade } from './upgrade-reject.js';
import type { WebhookStore } from './webhooks-store.js';

export interface MockServerOptions extends MockAppOptions {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

export interface MockServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  host: string;
  port: number;
  store: FixtureStore;
  accounts: Accounts;
  webhooks: WebhookStore;
  deliveries: DeliveryLog;
  /** New articles are announced here (streams, the webhook dispatcher). */
  articles: ArticleBus;
  /** The open streams (SSE and WebSocket) per key. */
  streams: StreamSessions;
  clock: MockClock;
  /** The app behind the server (what has started, the engine). */
  app: MockApp;
  /** Same as `POST /__mock/articles`. */
  indexArticles(input: unknown): Promise<Article[]>;
  /** Stops listening, ends open streams and held requests, closes keep-alive sockets. */
  close(): Promise<void>;
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  let baseUrl = '';
  const app = await createMockApp(options, () => baseUrl);
  const { clock, log } = app;
  // A server runs long: the committed articles' JSON is read into memory once.
  preloadArticles(app.store);
  // Before any stream or publisher: every article indexed from now on is replayable.
  const journal = app.journal();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const request: MockRequest = {
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      headers: req.headers,
      readBody: (limit) => readBody(req, limit),
      // Closing the server destroys every socket, which closes `res`, so this
      // one signal covers "client gone" and "server closing" alike.
      signal: abortOnClose(res),
      connection: { req, res },
    };
    const answer = await handleRequest(app, request, baseUrl);
    switch (answer.kind) {
      case 'answer':
        if (res.headersSent || res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        // Written in one tick: the socket sends them together (one writev).
        for (const part of answer.body ?? []) res.write(part);
        res.end();
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'gone':
        res.destroy();
        return;
      default:
        // 'hold' (the client's timeout must fire; closing the server ends it), 'streamed'.
        return;
    }
  };

  const server: Server = createServer((req, res) => {
    // handleRequest answers its own errors; this only catches a failure to write one.
    handle(req, res).catch(() => res.destroy());
  });
  // A request the HTTP parser cannot read (`GET http://[::1 HTTP/1.1`, a bad
  // header) gets a 400 and its connection closed; the server keeps serving.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error.code === 'ECONNRESET' && socket.bytesWritten > 0)) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const requestId = app.nextRequestId();
    const body = JSON.stringify(
      errorEnvelope(
        new MockHttpError(
          status,
          undefined,
          tooLarge
            ? 'Request headers too large.'
            : `The request could not be parsed as HTTP (${error.code ?? 'bad request'}).`,
        ),
        requestId,
        clock.now(),
      ),
    );
    // The headers every answer carries, as far as an unreadable request allows.
    endRaw(
      socket,
      status,
      {
        ...corsHeaders(),
        'x-request-id': requestId,
        'x-service-mode': 'live',
        ...rateLimitHeaders(app.limiter.peek('anonymous', ANONYMOUS_RATE_LIMIT)),
      },
      body,
    );
  });

  // The WebSocket endpoint (and the `ws` package) loads with the first WebSocket stream.
  let ws: WsEndpoint | undefined;
  let wsLoading: Promise<WsEndpoint> | undefined;
  const wsEndpoint = (): Promise<WsEndpoint> => {
    wsLoading ??= import('./stream-ws.js').then(({ createWsEndpoint }) => {
      ws = createWsEndpoint({
        accounts: app.accounts,
        limiter: app.limiter,
        clock,
        engine: app.engine,
        bus: app.bus,
        journal,
        sessions: app.sessions,
        nextRequestId: app.nextRequestId,
        baseUrl: () => baseUrl,
        log,
      });
      return ws;
    });
    return wsLoading;
  };
  // The WebSocket stream lives at /v1/news/ws; an upgrade anywhere else is a 426.
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    // Node sends every `Connection: Upgrade` request here. Anything but a
    // WebSocket upgrade (curl --http2's h2c) is an ordinary request: answered
    // as HTTP/1.1, as a real server that ignores the upgrade would.
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
      const res = new ServerResponse(req);
      res.assignSocket(socket);
      res.shouldKeepAlive = false;
      res.on('finish', () => socket.end());
      if (head.length > 0) req.unshift(head);
      handle(req, res).catch(() => socket.destroy());
      return;
    }
    const url = URL.canParse(req.url ?? '/', baseUrl)
      ? new URL(req.url ?? '/', baseUrl)
      : undefined;
    if (url === undefined) {
      rejectUpgrade(
        socket,
        new MockHttpError(400, undefined, 'The request target is not a valid URL.'),
        app.nextRequestId(),
        corsHeaders(),
        clock.now(),
        log,
      );
      return;
    }
    if (url.pathname.replace(/\/+$/, '') === WS_PATH) {
      if (ws !== undefined) ws.handle(req, socket, head);
      // Until the upgrade is handled the socket holds what the client sends.
      else
        wsEndpoint().then(
          (endpoint) =>
            closed === undefined ? endpoint.handle(req, socket, head) : socket.destroy(),
          () => socket.destroy(),
        );
      return;
    }
    const key = presentedKey(req.headers, url.searchParams)?.key;
    rejectUpgrade(
      socket,
      new MockHttpError(426, undefined, WEBSOCKET_MESSAGE),
      app.nextRequestId(),
      {
        ...corsHeaders(),
        'x-service-mode': modeOfKey(key),
        ...rateLimitHeaders(app.limiter.peek('anonymous', ANONYMOUS_RATE_LIMIT)),
      },
      clock.now(),
      log,
    );
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    app.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${urlHost}:${address.port}`;

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      ws?.close();
      app.close();
      server.close(() => resolve());
      // Keep-alive, streaming and deliberately held (`timeout`) sockets would
      // otherwise keep close() waiting for minutes.
      server.closeAllConnections();
    }).then(async () => {
      // A grown set still being written to the cache is finished first.
      if (options.cacheDir !== undefined)
        await (await import('./store/grown-cache.js')).grownSaved();
    });
    return closed;
  };

  return {
    url: baseUrl,
    host: address.address,
    port: address.port,
    store: app.store,
    accounts: app.accounts,
    webhooks: app.webhooks,
    deliveries: app.deliveries,
    articles: app.bus,
    streams: app.sessions,
    clock,
    app,
    indexArticles: app.indexArticles,
    close,
  };
}

function abortOnClose(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client went away'));
  });
  return controller.signal;
}
