/**
 * MCP over Streamable HTTP at /mcp (`news mcp --http`), both eras at one
 * endpoint. A request carrying the 2026-07-28 `_meta` envelope is served by
 * the SDK's per-request handler: a fresh server instance for the request, no
 * session, so any replica answers it. A 2025-era request goes to
 * legacy-sessions.ts: the session its `Mcp-Session-Id` names, a new one for an
 * `initialize`, or a stateless answer.
 * Before any request reaches either: the Host and Origin headers must name the
 * bound address (DNS-rebinding protection; 403), and with a token, the
 * `Authorization: Bearer` header must carry it (401). Off loopback a token
 * is required (exposure.ts, checked before anything starts). A body larger
 * than 4 MiB is refused (413), its rest read and thrown away.
 */
import { timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { listenError } from '../commands/mock-serve.js';
import type { Runtime } from '../runtime/runtime.js';
import type { Session } from './call.js';
import { LOOPBACK } from './exposure.js';
import { LegacySessions } from './legacy-sessions.js';
import { paramsProblem } from './params-check.js';
import { type Mirror, createMcpServer } from './server.js';
import {
  BodyTooLarge,
  MAX_BODY_BYTES,
  readBody,
  sendWebResponse,
  toWebRequest,
} from './web-bridge.js';

export interface HttpOptions {
  readonly host: string;
  readonly port: number;
  readonly token: string | undefined;
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

const bracket = (host: string) =>
  host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;

/** The Host header values a request may carry: the bound address, any loopback name for loopback. */
function allowedHosts(host: string, port: number): Set<string> | undefined {
  if (WILDCARD.has(host)) return undefined;
  const names = LOOPBACK.test(host)
    ? ['127.0.0.1', 'localhost', '[::1]', bracket(host)]
    : [bracket(host)];
  return new Set(names.map((n) => `${n.toLowerCase()}:${port}`));
}

function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers = {},
  code = -32000,
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function sameToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** Why a request may not reach the server, or undefined. */
function refusal(req: IncomingMessage, hosts: Set<string> | undefined, token: string | undefined) {
  const host = (req.headers.host ?? '').toLowerCase();
  if (hosts !== undefined && !hosts.has(host)) {
    return { status: 403, message: `Host ${host || '(none)'} is not this server's address` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const url = URL.canParse(origin) ? new URL(origin) : undefined;
    const ok = url !== undefined && (hosts === undefined ? url.host === host : hosts.has(url.host));
    if (!ok) return { status: 403, message: `Origin ${origin} is not allowed` };
  }
  if (token !== undefined && !sameToken(req.headers.authorization, token)) {
    return {
      status: 401,
      message: 'missing or wrong bearer token',
      headers: { 'www-authenticate': 'Bearer' },
    };
  }
  return undefined;
}

export async function serveHttp(
  session: Session,
  runtime: Runtime,
  options: HttpOptions,
  mirror: Mirror,
): Promise<void> {
  const factory = () => createMcpServer(session, mirror);
  const onerror = (error: Error) => mirror('debug', `MCP: ${error.message}`);
  const modern = createMcpHandler(factory, { legacy: 'reject', onerror });
  const legacy = new LegacySessions(factory, onerror);
  let hosts: Set<string> | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp');
    const refused = refusal(req, hosts, options.token);
    if (refused !== undefined) return reply(res, refused.status, refused.message, refused.headers);
    let text: string | undefined;
    if (req.method === 'POST') {
      try {
        text = await readBody(req);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        mirror('warning', `an HTTP request larger than ${MAX_BODY_BYTES} bytes was refused`);
        return reply(
          res,
          413,
          `Request too large: the limit is ${MAX_BODY_BYTES} bytes`,
          {},
          -32600,
        );
      }
    }
    // Aborted when the client goes away: a running call stops with it.
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const request = toWebRequest(req, text, gone.signal);
    let body: unknown;
    if (text !== undefined) {
      try {
        body = JSON.parse(text);
      } catch {
        return reply(res, 400, 'Parse error: the body is not JSON', {}, -32700);
      }
    }
    const wrong = paramsProblem(
      String((body as { method?: unknown } | undefined)?.method ?? ''),
      (body as { params?: unknown } | undefined)?.params,
    );
    const id = (body as { id?: unknown } | undefined)?.id;
    if (wrong !== undefined && (typeof id === 'string' || typeof id === 'number')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: wrong } }));
      return;
    }
    // GET and DELETE are the 2025 session's (its stream, its end); the modern path answers 405.
    const old =
      req.method === 'POST'
        ? await isLegacyRequest(request.clone())
        : req.headers['mcp-session-id'] !== undefined;
    const response = old
      ? await legacy.handle(request, body, (ended) => res.once('close', ended))
      : await modern.fetch(request);
    await sendWebResponse(res, response);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      mirror(
        'error',
        `HTTP request failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!res.headersSent) reply(res, 500, 'internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error) => reject(listenError(error, options.host, options.port)));
    http.listen(options.port, options.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  hosts = allowedHosts(options.host, port);
  await runtime.write(`http://${bracket(options.host)}:${port}/mcp\n`);
  runtime.report.notice(
    `MCP server ready${options.token === undefined ? '' : ' (bearer token required)'}; Ctrl-C stops it`,
  );
  const sweeper = setInterval(() => {
    void legacy.sweep().then((closed) => {
      if (closed > 0) mirror('info', `closed ${closed} idle HTTP session(s)`);
    });
  }, 60_000).unref();
  await new Promise<void>((resolve) => {
    if (runtime.signal.aborted) return resolve();
    runtime.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  clearInterval(sweeper);
  await legacy.closeAll();
  await modern.close();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
}
