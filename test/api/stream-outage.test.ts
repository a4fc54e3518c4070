/**
 * A stream that worked rides out an outage of a few minutes (a
 * service restarted for a deploy) instead of giving up after 4 attempts in
 * 15 s, says every reconnect, and says once when the service's ids are below
 * the id it started after (it would otherwise write nothing, for good). The
 * session alone, on scripted transports and a clock that moves with its sleeps.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionError, RateLimitError } from '../../src/api/errors.js';
import {
  type BehindInfo,
  type ReconnectInfo,
  type RestoredInfo,
  StreamSession,
} from '../../src/api/stream/stream-session.js';
import { formatSpan, givesUp, waitWithinBudget } from '../../src/api/stream/stream-reconnect.js';
import type {
  StreamConnectRequest,
  StreamItem,
  StreamTransport,
} from '../../src/api/stream/stream-types.js';

const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const open: StreamItem = { kind: 'open', sessionId: 's', mode: 'live' };
const art = (id: number): StreamItem => ({ kind: 'article', id: String(id), article: { id } });

function scripted(
  scripts: (StreamItem[][] | Error)[],
): StreamTransport & { resumes: (string | undefined)[] } {
  const resumes: (string | undefined)[] = [];
  let n = 0;
  return {
    name: 'sse',
    resumes,
    async *connect(request: StreamConnectRequest) {
      resumes.push(request.lastEventId);
      const script = scripts[n++];
      if (script === undefined) throw refused();
      if (script instanceof Error) throw script;
      for (const batch of script) yield batch;
    },
    close: async () => undefined,
  };
}

/** A session whose clock advances by exactly the time it sleeps. */
function session(
  transport: StreamTransport,
  extra: Partial<ConstructorParameters<typeof StreamSession>[0]> = {},
) {
  let clock = Date.parse('2026-11-01T00:00:00Z');
  const reconnects: ReconnectInfo[] = [];
  const restored: RestoredInfo[] = [];
  const s = new StreamSession({
    transport,
    url: 'http://127.0.0.1:1/v1/news/stream',
    headers: {},
    maxFailures: 3,
    signal: new AbortController().signal,
    now: () => new Date(clock),
    sleep: async (ms) => {
      clock += ms;
    },
    random: () => 1,
    onReconnect: (r) => reconnects.push(r),
    onRestored: (r) => restored.push(r),
    ...extra,
  });
  return { s, reconnects, restored };
}

async function collect(s: StreamSession, max: number): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of s) {
    out.push(...batch.map((a) => a.id));
    if (out.length >= max) break;
  }
  return out;
}

describe('a stream that worked and lost its service', () => {
  it('keeps trying for the outage budget however many attempts it takes, then resumes after the last id', async () => {
    // 20 refusals: 3 + 3 + 6 + 12 + 24 + 15 × 30 s ≈ 8 minutes of waiting.
    const t = scripted([
      [[open, art(1)]],
      ...Array.from({ length: 20 }, refused),
      [[open, art(2)]],
    ]);
    const { s, reconnects, restored } = session(t, { maxOutageMs: 10 * 60_000 });
    expect(await collect(s, 2)).toEqual(['1', '2']);
    expect(t.resumes.at(-1)).toBe('1');
    expect(reconnects).toHaveLength(21);
    expect(Math.max(...reconnects.map((r) => r.delayMs))).toBe(30_000);
    expect(reconnects.every((r) => r.everOpen && r.lastEventId === '1')).toBe(true);
    expect(restored).toHaveLength(1);
    expect(restored[0]).toMatchObject({ failures: 20, lastEventId: '1' });
    expect(restored[0]!.downMs).toBeGreaterThan(7 * 60_000);
  });

  it('gives up when the budget is spent, the last attempt made when it runs out', async () => {
    const t = scripted([[[open, art(1)]]]);
    const { s, reconnects } = session(t, { maxOutageMs: 2 * 60_000 });
    const failure = await collect(s, 5).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConnectionError);
    expect((failure as Error).message).toMatch(
      /^cannot keep the stream from 127\.0\.0\.1:1 open \(connection refused\) for 2 min \(\d+ attempts\)$/,
    );
    const last = reconnects.at(-1)!;
    expect(last.downMs + last.delayMs).toBe(2 * 60_000);
  });

  it('without a budget (--retries N) gives up after N failed attempts, as before', async () => {
    const t = scripted([[[open, art(1)]]]);
    const { s, reconnects } = session(t);
    await expect(collect(s, 5)).rejects.toThrow(/open \(connection refused\) after 4 attempts$/);
    // The drop, then three failed attempts.
    expect(reconnects.map((r) => r.failures)).toEqual([0, 1, 2, 3]);
  });

  it('counts attempts before the first connection and for 429s, budget or not', async () => {
    const never = session(scripted([]), { maxOutageMs: 10 * 60_000 });
    await expect(collect(never.s, 1)).rejects.toThrow(
      /^cannot connect to the stream .* after 4 attempts$/,
    );
    const capFull = new RateLimitError(429, 'too many streams', { code: 'ER0360' });
    const limited = session(scripted([[[open, art(1)]], capFull, capFull, capFull, capFull]), {
      maxOutageMs: 10 * 60_000,
    });
    await expect(collect(limited.s, 2)).rejects.toBeInstanceOf(RateLimitError);
  });
});

describe('a service below the id the stream starts after', () => {
  it('is said at connect from the position it tells, once, and nothing at or below is handed out', async () => {
    const behind: BehindInfo[] = [];
    const position = (id: string): StreamItem => ({ kind: 'position', id });
    const t = scripted([[[open, position('1200')], [art(1201)], [art(5001)]]]);
    const { s } = session(t, { lastEventId: '5000', onBehind: (b) => behind.push(b) });
    expect(await collect(s, 1)).toEqual(['5001']);
    expect(behind).toEqual([{ id: '1200', startAfter: '5000', from: 'position' }]);
  });

  it('is not said for a position at the start id (an echo) or 0 (nothing indexed yet)', async () => {
    for (const told of ['5000', '0']) {
      const behind: BehindInfo[] = [];
      const t = scripted([[[open, { kind: 'position', id: told }], [art(5001)]]]);
      const { s } = session(t, { lastEventId: '5000', onBehind: (b) => behind.push(b) });
      expect(await collect(s, 1)).toEqual(['5001']);
      expect(behind).toEqual([]);
    }
  });
});

describe('the give-up rule', () => {
  const policy = { attempts: 3, outageMs: 300_000 };
  it('reads time once the stream worked, attempts otherwise', () => {
    const base = { failures: 50, downMs: 299_999, everOpen: true, rateLimited: false };
    expect(givesUp(policy, base)).toBe(false);
    expect(givesUp(policy, { ...base, downMs: 300_000 })).toBe(true);
    expect(givesUp(policy, { ...base, everOpen: false })).toBe(true);
    expect(givesUp(policy, { ...base, failures: 3, everOpen: false })).toBe(false);
    expect(givesUp(policy, { ...base, rateLimited: true })).toBe(true);
    expect(givesUp({ attempts: 3 }, { ...base, failures: 4, downMs: 0 })).toBe(true);
    expect(waitWithinBudget(30_000, policy, { downMs: 290_000, everOpen: true })).toBe(10_000);
    expect(waitWithinBudget(30_000, policy, { downMs: 290_000, everOpen: false })).toBe(30_000);
  });

  it('spells spans for messages', () => {
    expect([45_000, 300_000, 150_000, 3_900_000].map(formatSpan)).toEqual([
      '45 s',
      '5 min',
      '2 min 30 s',
      '1 h 5 min',
    ]);
  });
});
