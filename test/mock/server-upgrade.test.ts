/**
 * What reaches the mock's `upgrade` listener: Node sends it every request
 * with `Connection: Upgrade`. A WebSocket upgrade with an unreadable target is
 * a 400 (it used to throw in the listener and kill the process); any other
 * upgrade (curl --http2's h2c) is answered as an ordinary request; and a title
 * stream whose window grows past 31 days while open keeps delivering.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { call, startTestServer } from './server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer({ timeScale: 0.001 });
});
afterAll(() => server.close());

/** Sends raw bytes, returns what the server answered before closing (or after 2 s). */
function raw(request: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    setTimeout(() => socket.destroy(), 2000);
  });
}

const ping = async () => (await call(server, 'GET', '/ping')).status;

describe('the upgrade listener', () => {
  it('a WebSocket upgrade to a target that is not a URL gets 400, and the mock keeps serving', async () => {
    const answer = await raw(
      'GET http://[::1 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(await ping()).toBe(200);
  });

  it('an h2c upgrade (curl --http2) is served as an ordinary request', async () => {
    const answer = await raw(
      'GET /ping HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n' +
        'HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"pong"');
  });
});

describe('a title stream over time', () => {
  it('keeps delivering when its window grows past 31 days while open', async () => {
    // The real search engine (the test server's fake one has no title window).
    const server = await startMockServer({ quiet: true, timeScale: 0.001 });
    try {
      await titleStream(server);
    } finally {
      await server.close();
    }
  });
});

async function titleStream(server: MockServer): Promise<void> {
  {
    // 31 days minus one mock minute: at time scale 0.001 the window passes
    // 31 days after 60 ms of wall time.
    const start = new Date(server.clock.nowMs() - 31 * 86_400_000 + 60_000).toISOString();
    const controller = new AbortController();
    const response = await fetch(
      `${server.url}/v1/news/stream?title=windowed&published_at.start=${encodeURIComponent(start)}`,
      { headers: { 'x-api-key': 'api_live_mock_pro' }, signal: controller.signal },
    );
    expect(response.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const posted = await call(server, 'POST', '/__mock/articles', {
      body: [{ title: 'windowed news' }],
    });
    expect(posted.status).toBe(201);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 3000;
    while (!text.includes('event: article') && Date.now() < deadline) {
      const { value, done } = await Promise.race([
        reader.read(),
        new Promise<{ value: undefined; done: true }>((r) =>
          setTimeout(() => r({ value: undefined, done: true }), 500),
        ),
      ]);
      if (value !== undefined) text += decoder.decode(value, { stream: true });
      if (done && value === undefined && Date.now() >= deadline) break;
    }
    controller.abort();
    expect(text).toContain('event: article');
    expect(text).toContain('windowed news');
  }
}
