/**
 * 2025-era clients over HTTP that use sessions: an `initialize` opens one
 * (`Mcp-Session-Id`), served by its own server instance on the SDK's
 * web-standard Streamable HTTP transport, with an event store so a client
 * whose SSE stream was closed resumes it with `Last-Event-ID` (the 2025-11-25
 * polling pattern). A 2025-era request without a session is served alone,
 * statelessly (the SDK's legacy fallback). Sessions idle for 30 minutes are
 * closed (http-sessions.ts); a session is this process's: behind several
 * replicas a 2025-era client needs its requests routed by `Mcp-Session-Id`
 * (docs/MCP.md, "Replicas"), a 2026-07-28 client needs nothing.
 */
import { randomUUID } from 'node:crypto';
import {
  type EventStore,
  type JSONRPCMessage,
  type Server,
  WebStandardStreamableHTTPServerTransport,
  isInitializeRequest,
  legacyStatelessFallback,
} from '@modelcontextprotocol/server';
import { HttpSessions } from './http-sessions.js';

/** Events kept per session for resumption: enough for a stream's last answers, bounded. */
const KEPT_EVENTS = 200;

/** The events of one session's streams, the last KEPT_EVENTS of them. */
class MemoryEventStore implements EventStore {
  private readonly events: { id: string; stream: string; message: JSONRPCMessage }[] = [];
  private next = 0;

  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}_${++this.next}`;
    this.events.push({ id, stream, message });
    if (this.events.length > KEPT_EVENTS) this.events.shift();
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.stream;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    const stream = this.events[at]?.stream ?? lastEventId.slice(0, lastEventId.lastIndexOf('_'));
    for (const e of this.events.slice(at + 1)) if (e.stream === stream) await send(e.id, e.message);
    return stream;
  }
}

interface Entry {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
}

function jsonError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export class LegacySessions {
  private readonly sessions = new HttpSessions<Entry>(async ({ transport, server }) => {
    await transport.close();
    await server.close();
  });
  private readonly stateless: (request: Request) => Promise<Response>;

  constructor(
    private readonly factory: () => Server,
    onerror: (error: Error) => void,
  ) {
    const fallback = legacyStatelessFallback(factory, onerror);
    this.stateless = (request) => fallback(request);
  }

  /**
   * A 2025-era request. `body` is the parsed JSON of a POST; `done` is called
   * with a function to call when the node response has ended (the session's
   * request is then over, for the idle sweep).
   */
  async handle(
    request: Request,
    body: unknown,
    done: (ended: () => void) => void,
  ): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const known = this.sessions.get(id);
      if (known === undefined) {
        return jsonError(
          404,
          -32001,
          'session not found (ended, or idle too long): initialize a new one',
        );
      }
      done(this.sessions.begin(id));
      return known.transport.handleRequest(request, { parsedBody: body });
    }
    if (request.method === 'POST' && isInitializeRequest(body)) return this.open(request, body);
    if (request.method !== 'POST') {
      return jsonError(
        400,
        -32000,
        'Bad Request: Mcp-Session-Id header required (initialize first)',
      );
    }
    return this.stateless(request);
  }

  private async open(request: Request, body: unknown): Promise<Response> {
    const server = this.factory();
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        eventStore: new MemoryEventStore(),
        // A client whose stream closes reconnects after this (SSE `retry`).
        retryInterval: 1000,
        onsessioninitialized: (sid) => {
          this.sessions.add(sid, { transport, server });
        },
        onsessionclosed: (sid) => {
          this.sessions.delete(sid);
        },
      });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    if (transport.sessionId === undefined) await server.close();
    return response;
  }

  /** Closes the sessions idle for 30 minutes; how many. */
  sweep(): Promise<number> {
    return this.sessions.sweep();
  }

  closeAll(): Promise<void> {
    return this.sessions.closeAll();
  }
}
