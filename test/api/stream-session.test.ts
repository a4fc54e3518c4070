/**
 * The reconnecting session alone, over scripted transports and a stalling
 * server: the idle watchdog, the seen-id set, the backoff, error events.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  ConnectionError,
  InterruptedError,
  PointsError,
  UsageError,
} from '../../src/api/errors.js';
import {
  type BehindInfo,
  type ReconnectInfo,
  SeenIds,
  StreamSession,
  reconnectDelay,
} from '../../src/api/stream/stream-session.js';
import { SseTransport } from '../../src/api/stream/stream-sse.js';
import type {
  StreamConnectRequest,
  StreamItem,
  StreamTransport,
} from '../../src/api/stream/stream-types.js';

/** Each connect plays the next script; `lastEventIds` records what it was asked to resume from. */
function scripted(
  scripts: (StreamItem[][] | Error)[],
): StreamTransport & { lastEventIds: (string | undefined)[] } {
  const lastEventIds: (string | undefined)[] = [];
  let n = 0;
  return {
    name: 'sse',
    lastEventIds,
    async *connect(request: StreamConnectRequest) {
      lastEventIds.push(request.lastEventId);
      const script = scripts[n++];
      if (script === undefined) {
        // Nothing more: wait until the session gives up on us.
        await new Promise<void>((resolve) =>
          request.signal.addEventListener('abort', () => resolve()),
        );
        throw request.signal.reason;
      }
      if (script instanceof Error) throw script;
      for (const batch of script) yield batch;
    },
    close: async () => undefined,
  };
}

const open: StreamItem = { kind: 'open', sessionId: 's', mode: 'live' };
const art = (id: number): StreamItem => ({ kind: 'article', id: String(id), article: { id } });
const errorEvent = (status: number, code: string): StreamItem => ({
  kind: 'error',
  envelope: { errors: [{ status, code, message: `m ${code}` }] },
  text: '',
});

function session(
  transport: StreamTransport,
  extra: Partial<ConstructorParameters<typeof StreamSession>[0]> = {},
) {
  const reconnects: ReconnectInfo[] = [];
  const s = new StreamSession({
    transport,
    url: 'http://127.0.0.1:1/v1/news/stream',
    headers: {},
    maxFailures: 2,
    signal: new AbortController().signal,
    sleep: async () => undefined,
    onReconnect: (r) => reconnects.push(r),
    ...extra,
  });
  return { s, reconnects };
}

async function collect(s: StreamSession, max: number): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of s) {
    out.push(...batch.map((a) => a.id));
    if (out.length >= max) break;
  }
  return out;
}

describe('StreamSession', () => {
  it('drops replayed ids and resumes from the last id it handed out', async () => {
    const t = scripted([
      [[open, art(1), art(2)], [art(3)]],
      [[open, art(2), art(3), art(4)]],
      [[open, art(5)]],
    ]);
    const { s } = session(t, { lastEventId: '0' });
    expect(await collect(s, 5)).toEqual(['1', '2', '3', '4', '5']);
    expect(t.lastEventIds).toEqual(['0', '3', '4']);
    expect(s.duplicates).toBe(2);
  });

  it('never hands out an id at or below the one it started after (a server whose ids went back)', async () => {
    // A restarted server numbering from before the saved id: 7 and 8 were written by an earlier run.
    const t = scripted([
      [
        [open, art(7), art(8), art(9)],
        [art(8), art(10)],
      ],
    ]);
    const behind: BehindInfo[] = [];
    const { s } = session(t, { lastEventId: '8', onBehind: (b) => behind.push(b) });
    expect(await collect(s, 2)).toEqual(['9', '10']);
    expect(s.belowStart).toBe(3);
    expect(s.duplicates).toBe(0);
    // Said once, at the first article below the start: 7 < 8 (8 itself could be a replay's edge).
    expect(behind).toEqual([{ id: '7', startAfter: '8', from: 'article' }]);
    // Not a number: nothing to compare, only the seen ids drop.
    const named = session(scripted([[[open, art(1), art(1), art(2)]]]), { lastEventId: 'abc' }).s;
    expect(await collect(named, 2)).toEqual(['1', '2']);
  });

  it('takes the server retry as the first delay and grows it only across failed attempts', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const t = scripted([
      [[open, { kind: 'retry', ms: 100 }, art(1)]],
      refused,
      refused,
      [[open, art(2)]],
    ]);
    const { s, reconnects } = session(t, { random: () => 1 });
    expect(await collect(s, 2)).toEqual(['1', '2']);
    expect(reconnects.map((r) => [r.failures, r.delayMs])).toEqual([
      [0, 100],
      [1, 100],
      [2, 200],
    ]);
  });

  it('gives up after maxFailures failed attempts in a row with a ConnectionError', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const { s } = session(scripted([refused, refused, refused]));
    await expect(collect(s, 1)).rejects.toBeInstanceOf(ConnectionError);
  });

  it('maps error events: ER0362 reconnects, ER0364 ends cleanly, ER0301 and ER0361 are typed', async () => {
    const lifetime = scripted([[[open, art(1), errorEvent(408, 'ER0362')]], [[open, art(2)]]]);
    expect(await collect(session(lifetime).s, 2)).toEqual(['1', '2']);

    const closed = session(scripted([[[open, art(1), errorEvent(410, 'ER0364')]]])).s;
    expect(await collect(closed, 10)).toEqual(['1']);
    expect(closed.end).toMatchObject({ reason: 'closed' });

    await expect(
      collect(session(scripted([[[open, errorEvent(402, 'ER0301')]]])).s, 1),
    ).rejects.toBeInstanceOf(PointsError);
    await expect(
      collect(session(scripted([[[open, errorEvent(401, 'ER0361')]]])).s, 1),
    ).rejects.toBeInstanceOf(AuthError);
  });

  it('stops with InterruptedError when its signal is aborted', async () => {
    const controller = new AbortController();
    const { s } = session(scripted([[[open, art(1)]]]), { signal: controller.signal });
    const ids: string[] = [];
    await expect(
      (async () => {
        for await (const batch of s) {
          ids.push(...batch.map((a) => a.id));
          controller.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(ids).toEqual(['1']);
  });

  it('reconnects when no byte arrives for 3 heartbeat intervals (a real stalled server)', async () => {
    let connects = 0;
    const lastIds: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      connects++;
      lastIds.push(req.headers['last-event-id'] as string | undefined);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`retry: 1\nevent: article\nid: ${connects}\ndata: {"id":${connects}}\n\n`);
      // …then silence, the connection held open.
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/news/stream`;
    const transport = new SseTransport({ connectTimeoutMs: 5000, env: {} });
    // Loaded before the 90 ms watchdog runs: on a busy machine importing undici took longer.
    await import('undici');
    const { s, reconnects } = session(transport, { url, heartbeatMs: 30, sleep: undefined });
    try {
      expect(await collect(s, 2)).toEqual(['1', '2']);
      expect(reconnects[0]?.reason).toMatch(/^no data for/);
      expect(lastIds).toEqual([undefined, '1']);
    } finally {
      await transport.close();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('SeenIds and reconnectDelay', () => {
  it('forgets the oldest id past its capacity', () => {
    const seen = new SeenIds(3);
    for (const id of ['a', 'b', 'c', 'd']) seen.add(id);
    expect(['a', 'b', 'c', 'd'].map((id) => seen.has(id))).toEqual([false, true, true, true]);
    expect(seen.size).toBe(3);
  });

  it('doubles from the retry per failure, caps, and jitters within [half, whole]', () => {
    expect(reconnectDelay(0, 1000, 30_000, () => 0)).toBe(500);
    expect(reconnectDelay(1, 1000, 30_000, () => 1)).toBe(1000);
    expect(reconnectDelay(3, 1000, 30_000, () => 1)).toBe(4000);
    expect(reconnectDelay(10, 1000, 30_000, () => 1)).toBe(30_000);
  });

  it('is a usage error when the server refuses stream.max_age (ER0363)', async () => {
    const { ValidationError } = await import('../../src/api/errors.js');
    const refusal = new ValidationError(400, 'Invalid stream.max_age', { code: 'ER0363' });
    const { s } = session(scripted([refusal]));
    await expect(collect(s, 1)).rejects.toBeInstanceOf(UsageError);
  });
});
