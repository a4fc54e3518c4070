/**
 * MCP over Streamable HTTP at /mcp (`news mcp --http`), with the SDK's
 * transport, one server per session (the `Mcp-Session-Id` the SDK issues;
 * sessions idle for 30 minutes are closed, http-sessions.ts).
 * Before any request reaches it: the Host and Origin headers must name the
 * bound address (DNS-rebinding protection; 403), and with a token, the
 * `Authorization: Bearer` header must carry it (401). Off loopback a token
 * is required (exposure.ts, checked before anything starts).
 */
import { timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { listenError } from '../commands/mock-serve.js';
import { LOOPBACK } from './exposure.js';
import type { Runtime } from '../runtime/runtime.js';
import type { Session } from './call.js';
import { HttpSessions } from './http-sessions.js';
import { type Mirror, createMcpServer } from './server.js';

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

function reply(res: ServerResponse, status: number, message: string, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
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
  const sessions = new HttpSessions<{ transport: StreamableHTTPServerTransport; server: Server }>(
    async ({ transport, server }) => {
      await transport.close();
      await server.close();
    },
  );
  let hosts: Set<string> | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp');
    const refused = refusal(req, hosts, options.token);
    if (refused !== undefined) return reply(res, refused.status, refused.message, refused.headers);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const known = sessions.get(id);
      if (known === undefined) {
        return reply(res, 404, 'session not found (ended, or idle too long): initialize a new one');
      }
      res.once('close', sessions.begin(id));
      return known.transport.handleRequest(req, res);
    }
    // No session yet: a new server, kept when the request initialised one.
    const server = createMcpServer(session, mirror);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sid) => {
        sessions.add(sid, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    if (transport.sessionId === undefined) await server.close();
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
    void sessions.sweep().then((closed) => {
      if (closed > 0) mirror('info', `closed ${closed} idle HTTP session(s)`);
    });
  }, 60_000).unref();
  await new Promise<void>((resolve) => {
    if (runtime.signal.aborted) return resolve();
    runtime.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  clearInterval(sweeper);
  await sessions.closeAll();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
}
