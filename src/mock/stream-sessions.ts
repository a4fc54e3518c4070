/**
 * The open streams (server-sent events and WebSockets alike), per key: the
 * connection cap of each plan (ER0360), `GET /v1/news/stream/sessions` and
 * `DELETE /v1/news/stream/sessions?session_id=ID` (ER0364 to the closed
 * stream; not billed). The numbers are the mock's choice: docs/STREAMS.md.
 */
import type { Account, Plan } from './accounts.js';
import type { MockClock } from './clock.js';
import { MockHttpError } from './error-envelope.js';
import { randomHex } from './node-crypto.js';
import type { Router } from './router.js';
import type { RouteDef } from './route-types.js';

/** Open streams per key, SSE and WebSocket together. */
export const STREAM_CAPS: Readonly<Record<Plan, number>> = {
  Free: 2,
  Starter: 5,
  Basic: 10,
  Professional: 250,
};

export type StreamTransportName = 'sse' | 'ws';

export interface SessionInfo {
  session_id: string;
  transport: StreamTransportName;
  opened_at: string;
  filters: Record<string, unknown>;
  events_sent: number;
  last_event_id: string | null;
}

export interface OpenSession {
  readonly id: string;
  readonly key: string;
  /** Counts an article event and remembers its id. */
  sent(id: number): void;
  /** Leaves the registry (the connection ended). Idempotent. */
  release(): void;
}

/** Bytes a connection holds in this process on their way to its client. */
export type BufferedBytes = () => number;

interface Entry {
  info: SessionInfo;
  key: string;
  /** Ends the stream with this error (ER0364 when closed through the endpoint). */
  close: (error: MockHttpError) => void;
  buffered: BufferedBytes | undefined;
}

export class StreamSessions {
  private readonly byId = new Map<string, Entry>();
  /** Streams opened since the server started, per key (tests wait on it). */
  private readonly openedByKey = new Map<string, number>();

  constructor(
    private readonly clock: MockClock,
    /** Articles a slow client may fall behind before it is dropped (stream-feed.ts's default otherwise). */
    readonly maxLag?: number | undefined,
  ) {}

  /** Registers a stream, or throws 429 ER0360 when the key has its plan's number open. */
  open(
    account: Account,
    transport: StreamTransportName,
    filters: Record<string, unknown>,
    close: (error: MockHttpError) => void,
    buffered?: BufferedBytes,
  ): OpenSession {
    const cap = STREAM_CAPS[account.plan];
    if (this.countFor(account.key) >= cap) {
      throw new MockHttpError(
        429,
        'ER0360',
        `Too many open streams for this API key (${cap} on the ${account.plan} plan). Close one (GET /v1/news/stream/sessions) or wait.`,
      );
    }
    const id = `ss_${randomHex(8)}`;
    const entry: Entry = {
      key: account.key,
      close,
      buffered,
      info: {
        session_id: id,
        transport,
        opened_at: this.clock.now().toISOString(),
        filters,
        events_sent: 0,
        last_event_id: null,
      },
    };
    this.byId.set(id, entry);
    this.openedByKey.set(account.key, this.openedFor(account.key) + 1);
    return {
      id,
      key: account.key,
      sent: (articleId) => {
        entry.info.events_sent++;
        entry.info.last_event_id = String(articleId);
      },
      release: () => {
        this.byId.delete(id);
      },
    };
  }

  openedFor(key: string): number {
    return this.openedByKey.get(key) ?? 0;
  }

  countFor(key: string): number {
    let n = 0;
    for (const entry of this.byId.values()) if (entry.key === key) n++;
    return n;
  }

  list(key: string): SessionInfo[] {
    return [...this.byId.values()].filter((e) => e.key === key).map((e) => ({ ...e.info }));
  }

  /** Closes one of the key's sessions; false when it has none by that id. */
  close(key: string, id: string): boolean {
    const entry = this.byId.get(id);
    if (entry === undefined || entry.key !== key) return false;
    this.byId.delete(id);
    entry.close(
      new MockHttpError(
        410,
        'ER0364',
        'This stream session was closed through the sessions endpoint.',
      ),
    );
    return true;
  }

  /** What the open streams hold in this process, waiting for slow clients: bounded by design. */
  bufferedBytes(): number {
    let n = 0;
    for (const entry of this.byId.values()) n += entry.buffered?.() ?? 0;
    return n;
  }

  get size(): number {
    return this.byId.size;
  }
}

export function addStreamSessionRoutes(router: Router<RouteDef>, sessions: StreamSessions): void {
  router.add('GET', '/v1/news/stream/sessions', {
    auth: 'key',
    scope: 'news:read',
    handler: (ctx) => {
      const results = sessions.list(ctx.account!.key);
      return { status: 200, body: { status: 'ok', count: results.length, results } };
    },
  });
  router.add('DELETE', '/v1/news/stream/sessions', {
    auth: 'key',
    scope: 'news:read',
    handler: (ctx) => {
      const id = ctx.params['session_id'];
      if (typeof id !== 'string' || id.trim() === '') {
        throw new MockHttpError(400, undefined, 'session_id is required.');
      }
      if (!sessions.close(ctx.account!.key, id.trim())) {
        throw new MockHttpError(404, undefined, `No open stream session ${id} for this key.`);
      }
      return { status: 200, body: { status: 'ok', session_id: id.trim(), closed: true } };
    },
  });
}
