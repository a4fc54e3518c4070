import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { TEST_MODE_MARKER } from '../../src/mock/search/test-mode.js';
import { call, startTestServer } from './server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  // 15 s heartbeats become 15 ms.
  server = await startTestServer({ timeScale: 0.001 });
});
afterAll(() => server.close());

/** Reads server-sent events text until `done(text)` holds. */
async function readUntil(
  body: ReadableStream<Uint8Array>,
  done: (text: string) => boolean,
): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + 5000;
  while (!done(text)) {
    if (Date.now() > deadline) throw new Error(`stream never matched; got: ${text}`);
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

function events(
  text: string,
): { event: string; id: string; data: { id: number; title: string; body: string } }[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event: article'))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2) ?? '';
      return { event: field('event'), id: field('id'), data: JSON.parse(field('data')) };
    });
}

describe('mock server: /v1/news/stream', () => {
  it('streams matching articles indexed after connecting, as `article` events, and bills live keys', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/news/stream?title=breaking`, {
      headers: { 'x-api-key': 'api_live_mock_starter' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-service-mode')).toBe('live');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = response.body!;
    const hello = await readUntil(body, (t) => t.includes('\n\n'));
    expect(hello).toMatch(/^: connected/);

    const before = server.accounts.get('api_live_mock_starter')!.points;
    await call(server, 'POST', '/__mock/articles', {
      body: [
        { title: 'Breaking: mock news' },
        { title: 'Unrelated' },
        { title: 'More breaking things' },
      ],
    });
    const text = await readUntil(body, (t) => events(t).length >= 2);
    const got = events(text);
    expect(got.map((e) => e.data.title)).toEqual(['Breaking: mock news', 'More breaking things']);
    expect(got[0]?.id).toBe(String(got[0]?.data.id));
    expect(server.accounts.get('api_live_mock_starter')!.points).toBe(before - 2);
    controller.abort();
  });

  it('sends heartbeats on the scaled clock and truncated articles to test keys', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/news/stream`, {
      headers: { authorization: 'Bearer api_test_mock_basic' },
      signal: controller.signal,
    });
    expect(response.headers.get('x-service-mode')).toBe('test');
    const body = response.body!;
    expect(await readUntil(body, (t) => t.includes(': heartbeat'))).toContain(': heartbeat');
    await call(server, 'POST', '/__mock/articles', {
      body: [{ title: 'Test mode item', body: 'x'.repeat(500) }],
    });
    const [event] = events(await readUntil(body, (t) => events(t).length >= 1));
    expect(event?.data.body).toContain(TEST_MODE_MARKER);
    expect(event?.data.body.length).toBeLessThan(300);
    controller.abort();
  });

  it('forgets a client that disconnected', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/news/stream`, {
      headers: { 'x-api-key': 'api_live_mock_pro' },
      signal: controller.signal,
    });
    await readUntil(response.body!, (t) => t.includes('connected'));
    const listeners = server.articles.size;
    controller.abort();
    const deadline = Date.now() + 2000;
    while (server.articles.size >= listeners && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(server.articles.size).toBe(listeners - 1);
  });

  it('needs a key like every other data endpoint', async () => {
    expect((await call(server, 'GET', '/v1/news/stream')).status).toBe(401);
  });
});
