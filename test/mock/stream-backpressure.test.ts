/**
 * The mock's stream under a client that reads slower than articles are
 * indexed: the server holds a bounded number of bytes for it (it sends the
 * next piece only once the socket took the last one), charges points only
 * for what it wrote, and drops a client whose backlog keeps growing with an
 * `event: error`, as a real service would. A raw node:http client (and a
 * `ws` client for the WebSocket), paused,
 * is the slow reader; the server's own count of buffered bytes is measured.
 */
import { type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { MockServer } from '../../src/mock/server.js';
import { call, startTestServer } from './server-helpers.js';

const KEY = 'api_live_mock_pro';
const MAX_LAG = 3000;
/** A piece (64 articles of ~8 KB) plus the socket's own buffers: far below what was published. */
const BOUND = 2 * 1024 * 1024;

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer({ timeScale: 0.01, streamMaxLag: MAX_LAG });
});
afterAll(() => server.close());

const BODY = 'x'.repeat(8 * 1024);

async function publish(count: number): Promise<void> {
  for (let done = 0; done < count; done += 500) {
    const n = Math.min(500, count - done);
    const r = await call(server, 'POST', '/__mock/articles', {
      body: Array.from({ length: n }, (_, i) => ({ title: `slow ${done + i}`, body: BODY })),
    });
    expect(r.status).toBe(201);
  }
}

interface SlowClient {
  res: IncomingMessage;
  /** Article events received so far, and whether an error event came. */
  received(): number;
  errored(): boolean;
  ended: Promise<void>;
}

/** Opens the stream and pauses it as soon as the server said it is connected. */
function openPaused(): Promise<SlowClient> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/v1/news/stream`,
      { headers: { 'x-api-key': KEY } },
      (res) => {
        let tail = '';
        let articles = 0;
        let errored = false;
        res.setEncoding('utf8');
        const ended = new Promise<void>((done) => res.on('close', () => done()));
        res.on('data', (chunk: string) => {
          const text = tail + chunk;
          // Count whole events only; keep an unfinished one for the next chunk.
          const cut = text.lastIndexOf('\n\n');
          const whole = cut === -1 ? '' : text.slice(0, cut + 2);
          tail = cut === -1 ? text : text.slice(cut + 2);
          articles += whole.split('event: article\n').length - 1;
          if (whole.includes('event: error\n')) errored = true;
          if (whole.includes(': connected') && !res.isPaused()) {
            res.pause();
            resolve({ res, received: () => articles, errored: () => errored, ended });
          }
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const pointsOf = () => server.accounts.get(KEY)!.points;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('mock stream: a slow reader', () => {
  it('holds a bounded number of bytes and charges only what was written', async () => {
    const client = await openPaused();
    const before = pointsOf();
    const published = 2500;
    await publish(published);
    // Time for the server to fill whatever the socket takes.
    await new Promise((r) => setTimeout(r, 300));
    const held = server.streams.bufferedBytes();
    expect(held).toBeLessThan(BOUND);
    // ~20 MB published; what was charged is what fits in the buffers on the way, not all of it.
    const chargedPaused = before - pointsOf();
    expect(chargedPaused).toBeLessThan(published);
    expect(client.received()).toBeLessThanOrEqual(chargedPaused);

    client.res.resume();
    await until(() => client.received() === published, 'every article');
    expect(before - pointsOf()).toBe(published);
    expect(client.errored()).toBe(false);
    client.res.destroy();
    await client.ended;
  }, 60_000);

  it('drops a client whose backlog keeps growing, with an error event; charged = received', async () => {
    const client = await openPaused();
    const before = pointsOf();
    await publish(MAX_LAG * 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.streams.bufferedBytes()).toBeLessThan(BOUND);
    client.res.resume();
    await client.ended;
    expect(client.errored()).toBe(true);
    expect(client.received()).toBeLessThan(MAX_LAG * 2);
    expect(before - pointsOf()).toBe(client.received());
    expect(server.streams.size).toBe(0);
  }, 60_000);

  it('holds the WebSocket the same way: bounded bytes, charged = received', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/v1/news/ws`, {
      headers: { 'x-api-key': KEY },
    });
    let received = 0;
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string };
      if (frame.type === 'article') received++;
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.once('error', reject);
    });
    // Delivery starts at the first frame; then the reader stops reading.
    ws.send(JSON.stringify({ type: 'ping' }));
    await new Promise((r) => setTimeout(r, 100));
    ws.pause();
    const before = pointsOf();
    const published = 2500;
    await publish(published);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.streams.bufferedBytes()).toBeLessThan(BOUND);
    expect(before - pointsOf()).toBeLessThan(published);

    ws.resume();
    await until(() => received === published, 'every article');
    expect(before - pointsOf()).toBe(published);
    ws.close();
  }, 60_000);
});
