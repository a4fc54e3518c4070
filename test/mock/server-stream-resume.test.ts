/**
 * The mock's stream as other clients see it: the independent `eventsource`
 * package (Last-Event-ID replay over forced disconnects, `?api_key=`), a plain
 * `ws` WebSocket (the contract's frames, resume, ping/pong), the connect-time
 * errors, the stream cap and the sessions endpoints. Our own client is tested
 * in test/cli/stream*.test.ts.
 */
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { MockServer } from '../../src/mock/server.js';
import { RESUME_GRACE_MS, resumeGraceWallMs } from '../../src/mock/stream-ws.js';
import { call, startTestServer } from './server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  // 15 s heartbeats become 15 ms; `retry:` becomes 3 ms.
  server = await startTestServer({ timeScale: 0.001 });
});
afterAll(() => server.close());

async function post(titles: string[]): Promise<number[]> {
  const r = await call(server, 'POST', '/__mock/articles', {
    body: titles.map((title) => ({ title })),
  });
  return (r.json as { ids: number[] }).ids;
}

async function until(
  check: () => boolean,
  what: string | (() => string),
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('mock stream, read by the independent eventsource client', () => {
  it('replays after Last-Event-ID on every forced disconnect: each match once, in order', async () => {
    const opened: number[] = [];
    const received: string[] = [];
    const lastIds: (string | null)[] = [];
    const source = new EventSource(
      `${server.url}/v1/news/stream?title=keep&api_key=api_live_mock_pro`,
      {
        fetch: (url, init) => {
          const headers = new Headers(init.headers as Record<string, string>);
          lastIds.push(headers.get('last-event-id'));
          headers.set('x-mock-scenario', 'drop-after-4');
          return fetch(url, { ...init, headers });
        },
      },
    );
    source.addEventListener('open', () => opened.push(Date.now()));
    source.addEventListener('article', (event) => {
      received.push((event as MessageEvent).lastEventId);
    });
    try {
      await until(() => opened.length === 1, 'the first connection');
      const titles = Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0 ? `skip ${i}` : `keep ${i}`,
      );
      const ids = await post(titles);
      const expected = ids.filter((_, i) => titles[i]!.startsWith('keep')).map(String);
      await until(
        () => received.length >= expected.length,
        () => `every article (${received.length}/${expected.length}, ${opened.length} opens)`,
      );
      expect(received).toEqual(expected);
      // 40 matches, 4 per connection: the client came back with Last-Event-ID each time.
      expect(opened.length).toBeGreaterThanOrEqual(10);
      expect(lastIds.slice(1).every((id) => id !== null && expected.includes(id))).toBe(true);
    } finally {
      source.close();
    }
  });
});

describe('mock WebSocket at /v1/news/ws, read by a plain ws client', () => {
  function open(
    query: string,
    headers: Record<string, string> = {},
  ): Promise<{
    socket: WebSocket;
    frames: Record<string, unknown>[];
  }> {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v1/news/ws${query}`, {
      headers,
    });
    const frames: Record<string, unknown>[] = [];
    socket.on('message', (data) =>
      frames.push(JSON.parse(String(data)) as Record<string, unknown>),
    );
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve({ socket, frames }));
      socket.once('error', reject);
    });
  }

  it('says connected with a session id, answers ping with pong, sends article frames', async () => {
    const { socket, frames } = await open('?title=wsframe', { 'x-api-key': 'api_test_mock_basic' });
    try {
      await until(() => frames.length >= 1, 'connected');
      expect(frames[0]).toMatchObject({
        type: 'connected',
        session_id: expect.stringMatching(/^ss_/),
      });
      socket.send(JSON.stringify({ type: 'ping' }));
      await until(() => frames.some((f) => f['type'] === 'pong'), 'pong');
      const [id] = await post(['wsframe one', 'other']);
      await until(() => frames.some((f) => f['type'] === 'article'), 'an article');
      const article = frames.find((f) => f['type'] === 'article')!;
      expect(article['id']).toBe(id);
      expect((article['article'] as { title: string }).title).toBe('wsframe one');
      await until(() => frames.some((f) => f['type'] === 'heartbeat'), 'a heartbeat');
    } finally {
      socket.close();
    }
  });

  it('replays after a resume frame, before anything live, in indexing order', async () => {
    const ids = await post(['resume a', 'resume b', 'nope', 'resume c']);
    const { socket, frames } = await open('?title=resume&api_key=api_live_mock_pro');
    try {
      socket.send(JSON.stringify({ type: 'resume', last_event_id: String(ids[0]) }));
      const [live] = await post(['resume live']);
      await until(
        () => frames.filter((f) => f['type'] === 'article').length >= 3,
        'replay and live',
      );
      expect(frames.filter((f) => f['type'] === 'article').map((f) => f['id'])).toEqual([
        ids[1],
        ids[3],
        live,
      ]);
    } finally {
      socket.close();
    }
  });

  it('waits for a resume that comes late (a real round trip, whatever the time scale): replay first, nothing lost', async () => {
    // At time scale 0.001 one mock second is 1 ms: the grace must not shrink with it.
    expect(resumeGraceWallMs(0.001)).toBe(RESUME_GRACE_MS);
    expect(resumeGraceWallMs(2)).toBe(2 * RESUME_GRACE_MS);
    const ids = await post(['lateresume a', 'lateresume b', 'lateresume c']);
    const { socket, frames } = await open('?title=lateresume&api_key=api_live_mock_pro', {
      'x-mock-scenario': 'drop-after-3',
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    try {
      await until(() => frames.some((f) => f['type'] === 'connected'), 'connected');
      // Indexed while the client is still on its way with the resume (50 mock
      // seconds here): held back, or the cut after 3 events would come before
      // the replay and lose it.
      const [live] = await post(['lateresume live']);
      await new Promise((r) => setTimeout(r, 50));
      expect(frames.filter((f) => f['type'] === 'article').map((f) => f['id'])).toEqual([]);
      socket.send(JSON.stringify({ type: 'resume', last_event_id: String(ids[0]) }));
      await closed;
      expect(frames.filter((f) => f['type'] === 'article').map((f) => f['id'])).toEqual([
        ids[1],
        ids[2],
        live,
      ]);
    } finally {
      socket.terminate();
    }
  });

  it('opens a full new session after one reached its lifetime (ER0362): replay, then live', async () => {
    const key = 'api_live_mock_pro';
    const first = await open('?title=lifetimews', { 'x-api-key': key });
    const firstClosed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));
    first.socket.send(JSON.stringify({ type: 'ping' }));
    const [one] = await post(['lifetimews one']);
    await until(() => first.frames.some((f) => f['type'] === 'article'), 'the first article');
    // 60 mock minutes: 3.6 s here.
    await firstClosed;
    const ended = first.frames.find((f) => f['type'] === 'error') as
      | { error: { errors: { code: string }[] } }
      | undefined;
    expect(ended?.error.errors[0]?.code).toBe('ER0362');

    const [two] = await post(['lifetimews two']);
    const second = await open('?title=lifetimews', { 'x-api-key': key });
    try {
      await until(() => second.frames.some((f) => f['type'] === 'connected'), 'connected');
      second.socket.send(JSON.stringify({ type: 'resume', last_event_id: String(one) }));
      await until(() => second.frames.some((f) => f['type'] === 'article'), 'the replay');
      const [three] = await post(['lifetimews three']);
      await until(
        () => second.frames.filter((f) => f['type'] === 'article').length >= 2,
        'the live article',
      );
      expect(second.frames.filter((f) => f['type'] === 'article').map((f) => f['id'])).toEqual([
        two,
        three,
      ]);
      // The new session has a lifetime of its own: still open, no error.
      expect(second.frames.some((f) => f['type'] === 'error')).toBe(false);
      expect(second.socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      second.socket.close();
    }
  });

  it('refuses before the upgrade with the envelope: bad key 401, bad stream.max_age 400 ER0363', async () => {
    const refused = (query: string, headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v1/news/ws${query}`, {
          headers,
        });
        socket.on('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        socket.on('open', () => reject(new Error('must not upgrade')));
        socket.on('error', () => undefined);
      });
    const noKey = await refused('', {});
    expect(noKey.status).toBe(401);
    expect(JSON.parse(noKey.body).errors[0].code).toBe('ER0201');
    const badAge = await refused('?stream.max_age=0', { 'x-api-key': 'api_live_mock_pro' });
    expect(badAge.status).toBe(400);
    expect(JSON.parse(badAge.body).errors[0].code).toBe('ER0363');
  });
});

describe('mock stream: caps, sessions, errors', () => {
  it('answers 400 ER0363 for an invalid stream.max_age and 402 ER0301 for an empty balance', async () => {
    const bad = await call(server, 'GET', '/v1/news/stream?stream.max_age=abc', {
      key: 'api_live_mock_pro',
    });
    expect(bad.status).toBe(400);
    expect((bad.json as { errors: { code: string }[] }).errors[0]?.code).toBe('ER0363');
    const empty = await call(server, 'GET', '/v1/news/stream', { key: 'api_live_mock_empty' });
    expect(empty.status).toBe(402);
    expect((empty.json as { errors: { code: string }[] }).errors[0]?.code).toBe('ER0301');
  });

  it('caps open streams per plan (429 ER0360), lists them and closes one with ER0364', async () => {
    const key = 'api_live_mock_free';
    const controllers = [new AbortController(), new AbortController()];
    const responses = await Promise.all(
      controllers.map((c) =>
        fetch(`${server.url}/v1/news/stream`, { headers: { 'x-api-key': key }, signal: c.signal }),
      ),
    );
    try {
      expect(responses.map((r) => r.status)).toEqual([200, 200]);
      const third = await call(server, 'GET', '/v1/news/stream', { key });
      expect(third.status).toBe(429);
      expect((third.json as { errors: { code: string }[] }).errors[0]?.code).toBe('ER0360');

      const list = await call(server, 'GET', '/v1/news/stream/sessions', { key });
      const sessions = (list.json as { results: { session_id: string; transport: string }[] })
        .results;
      expect(sessions.map((s) => s.transport)).toEqual(['sse', 'sse']);
      const id = responses[0]!.headers.get('x-stream-session-id')!;
      expect(sessions.map((s) => s.session_id)).toContain(id);
      // Another key cannot see or close them.
      expect(
        (
          await call(server, 'DELETE', `/v1/news/stream/sessions?session_id=${id}`, {
            key: 'api_live_mock_pro',
          })
        ).status,
      ).toBe(404);
      const closed = await call(server, 'DELETE', `/v1/news/stream/sessions?session_id=${id}`, {
        key,
      });
      expect(closed.status).toBe(200);
      const text = await responses[0]!.text();
      expect(text).toContain('event: error');
      expect(text).toContain('"ER0364"');
      expect(server.streams.countFor(key)).toBe(1);
    } finally {
      for (const c of controllers) c.abort();
    }
  });

  it('bills 1 point per article event and ends with ER0301 when the points run out', async () => {
    const account = server.accounts.get('api_live_mock_starter')!;
    account.charge(account.points - 2);
    const response = await fetch(`${server.url}/v1/news/stream?title=bill`, {
      headers: { 'x-api-key': account.key },
    });
    await post(['bill 1', 'bill 2', 'bill 3']);
    const text = await response.text();
    expect(text.match(/event: article/g)).toHaveLength(2);
    expect(text).toContain('"ER0301"');
    expect(account.points).toBe(0);
  });
});
