/**
 * The stream knows its position from the connection (docs/STREAMS.md): a
 * cut before the first article loses nothing indexed while it reconnects,
 * from the mock's opening `id:` (SSE) or `connected.last_event_id` (ws), and
 * against a server that tells none, through the search endpoint. Also: the
 * mock's heartbeats stay within the client's idle watchdog at every
 * --time-scale.
 */
import { type Server, createServer } from 'node:http';
import { type Socket, connect, createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARTBEAT_MS } from '../../src/api/stream/stream-session.js';
import { DatalessIds } from '../../src/api/stream/stream-sse.js';
import type { MockServer } from '../../src/mock/server.js';
import { heartbeatMockMs } from '../../src/mock/stream-feed.js';
import { runCli } from '../helpers/cli.js';
import { call, startTestServer } from '../mock/server-helpers.js';

const KEY = 'api_live_mock_pro';

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A TCP proxy in front of the mock that can cut every connection and hold
 * new ones until released: the client's reconnect waits while articles are
 * indexed, as in a network outage.
 */
async function cuttingProxy(target: string) {
  const { port: targetPort } = new URL(target);
  const live = new Set<Socket>();
  const held: Socket[] = [];
  let holding = false;
  let bytesDown = 0;
  const forward = (client: Socket): void => {
    const upstream = connect(Number(targetPort), '127.0.0.1');
    for (const s of [client, upstream]) {
      live.add(s);
      s.on('close', () => live.delete(s));
      s.on('error', () => undefined);
    }
    upstream.on('data', (chunk: Buffer) => {
      bytesDown += chunk.length;
    });
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  const server = createTcpServer((client) => {
    client.on('error', () => undefined);
    if (holding) {
      client.pause();
      held.push(client);
    } else forward(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get bytesDown() {
      return bytesDown;
    },
    get held() {
      return held.length;
    },
    cutAndHold(): void {
      holding = true;
      for (const s of live) s.destroy();
    },
    release(): void {
      holding = false;
      for (const client of held.splice(0)) {
        forward(client);
        client.resume();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of live) s.destroy();
        for (const s of held) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function ids(stdout: string): number[] {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);
}

describe('a cut before the first article', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startTestServer({ timeScale: 0.001 });
  });
  afterAll(() => server.close());

  for (const transport of ['sse', 'ws'] as const) {
    it(`loses nothing indexed while the client reconnects (${transport})`, async () => {
      const proxy = await cuttingProxy(server.url);
      try {
        const before = server.streams.openedFor(KEY);
        const running = runCli([
          'stream',
          '--base-url',
          proxy.url,
          '--api-key',
          KEY,
          '--transport',
          transport,
          '--max-events',
          '5',
          '--duration',
          '20s',
        ]);
        await until(() => server.streams.openedFor(KEY) > before, 'the stream to open');
        // The opening (and, on ws, the first frames) reached the client.
        await until(() => proxy.bytesDown > 200, 'the opening to reach the client');
        await new Promise((r) => setTimeout(r, 100));
        proxy.cutAndHold();
        await until(() => proxy.held > 0, 'the client to reconnect');
        const posted = (
          await call(server, 'POST', '/__mock/articles', {
            body: [1, 2, 3, 4, 5].map((n) => ({ title: `while away ${n}` })),
          })
        ).json as { ids: number[] };
        proxy.release();
        const result = await running;
        expect(result.code, result.stderr).toBe(0);
        expect(ids(result.stdout)).toEqual(posted.ids);
      } finally {
        await proxy.close();
      }
    }, 30_000);
  }

  it('the mock opens with the position: an SSE event without data, the ws `connected` frame', async () => {
    const posted = await call(server, 'POST', '/__mock/articles', { body: [{ title: 'before' }] });
    const [newest] = (posted.json as { ids: number[] }).ids;
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/news/stream`, {
      headers: { 'x-api-key': KEY },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    controller.abort();
    const opening = new TextDecoder().decode(value);
    expect(opening).toMatch(new RegExp(`\\nid: ${newest}\\n\\n`));
    expect(opening).not.toContain('data:');
    // Resuming, it says the id it resumes after.
    const resumed = new AbortController();
    const again = await fetch(`${server.url}/v1/news/stream`, {
      headers: { 'x-api-key': KEY, 'last-event-id': '7' },
      signal: resumed.signal,
    });
    const first = await again.body!.getReader().read();
    resumed.abort();
    expect(new TextDecoder().decode(first.value)).toContain('\nid: 7\n\n');
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/v1/news/ws`, {
      headers: { 'x-api-key': KEY },
    });
    const frame = await new Promise<Record<string, unknown>>((resolve, reject) => {
      ws.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>));
      ws.once('error', reject);
    });
    ws.terminate();
    expect(frame).toMatchObject({ type: 'connected', last_event_id: String(newest) });
  });
});

describe('a server that tells no position', () => {
  let stub: Server;
  let url = '';
  const lastEventIds: (string | undefined)[] = [];
  const searches: Record<string, unknown>[] = [];
  let connections = 0;

  beforeAll(async () => {
    stub = createServer((req, res) => {
      if (req.url?.startsWith('/v1/news/stream')) {
        connections += 1;
        lastEventIds.push(req.headers['last-event-id'] as string | undefined);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('retry: 5\n\n: no id here\n\n');
        // The first connection is cut before any article; the next ones stay quiet.
        if (connections === 1) setTimeout(() => res.socket?.destroy(), 50);
        return;
      }
      if (req.url === '/v1/news/everything' && req.method === 'POST') {
        let text = '';
        req.on('data', (c: Buffer) => {
          text += c;
        });
        req.on('end', () => {
          searches.push(JSON.parse(text) as Record<string, unknown>);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              status: 'ok',
              results: [
                { id: 11, title: 'indexed during the cut' },
                { id: 12, title: 'and another' },
              ],
              has_next_pages: false,
            }),
          );
        });
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => stub.close(() => resolve())));

  it('reconnects from the time of the first connection, through the search endpoint', async () => {
    const started = Date.now();
    const result = await runCli([
      'stream',
      '--base-url',
      url,
      '--api-key',
      'k_test',
      '--language-code',
      'en',
      '--max-events',
      '2',
      '--duration',
      '10s',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(ids(result.stdout)).toEqual([11, 12]);
    expect(lastEventIds[0]).toBeUndefined();
    expect(searches).toHaveLength(1);
    const body = searches[0]!;
    expect(body).toMatchObject({ 'language.code': 'en', 'sort.by': 'id', 'sort.order': 'asc' });
    const from = Date.parse(String(body['published_at.start']));
    expect(from).toBeLessThanOrEqual(started + 1000);
    expect(from).toBeGreaterThan(started - 2000);
    expect(result.stderr).toContain('found through the search endpoint');
  }, 20_000);
});

describe('the SSE position reader', () => {
  it('reports the id of an event without data, across chunks and line ends, and no other', () => {
    const reader = new DatalessIds();
    const seen: string[] = [];
    for (const chunk of [
      ': hello\r\nretry: 3\r\nid: 4',
      '2\r',
      '\n\r\n',
      'event: article\nid: 43\ndata: {"id":43}\n\n',
      'id: 44\n\nid: \n\n',
      `data: ${'x'.repeat(5000)}`,
      '\nid: 45\n\n',
      'id: 46\rdata\r\r',
    ])
      seen.push(...reader.feed(chunk));
    expect(seen).toEqual(['42', '44']);
  });
});

describe('heartbeats and the idle watchdog', () => {
  it.each([0.001, 1, 3, 4, 10, 1000])(
    'at --time-scale %s a heartbeat comes at least once per 15 real seconds',
    (scale) => {
      const wallMs = heartbeatMockMs(scale) * scale;
      expect(wallMs).toBeLessThanOrEqual(HEARTBEAT_MS);
      // The client drops a connection after 3 silent heartbeat intervals.
      expect(wallMs * 3).toBeLessThan(3 * HEARTBEAT_MS + 1);
      if (scale <= 1) expect(wallMs).toBeCloseTo(HEARTBEAT_MS * scale);
    },
  );
});
