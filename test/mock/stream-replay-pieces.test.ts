/**
 * A big replay does not stop the mock: after `Last-Event-ID`, 10,000
 * articles indexed meanwhile are sent slice by slice, and `/ping` (asked
 * all along) is answered within a second the whole time, and so is the
 * sessions list, which shows the replay half sent (a replay written in one
 * step is never seen half sent); every article arrives once, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { call, startTestServer } from './server-helpers.js';

const KEY = 'api_live_mock_pro';
const REPLAY = 10_000;

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer({ timeScale: 0.01 });
});
afterAll(() => server.close());

describe('mock stream: a big replay', () => {
  it('is sent in pieces while /ping is answered within a second', async () => {
    // The position before the articles: the replay starts after it.
    const hello = await fetch(`${server.url}/v1/news/stream`, { headers: { 'x-api-key': KEY } });
    const reader0 = hello.body!.getReader();
    const first = new TextDecoder().decode((await reader0.read()).value);
    const position = /\nid: (\d+)\n/.exec(first)![1]!;
    await reader0.cancel();

    const body = 'y'.repeat(500);
    for (let done = 0; done < REPLAY; done += 5_000) {
      const r = await call(server, 'POST', '/__mock/articles', {
        body: Array.from({ length: 5_000 }, (_, i) => ({ title: `replayed ${done + i}`, body })),
      });
      expect(r.status).toBe(201);
    }

    let slowest = 0;
    const midway: number[] = [];
    let pings = 0;
    let replaying = true;
    const pinger = (async () => {
      while (replaying) {
        const started = performance.now();
        const r = await fetch(`${server.url}/ping`);
        await r.arrayBuffer();
        slowest = Math.max(slowest, performance.now() - started);
        pings++;
        // How far the replay was when the server answered another request.
        const sessions = await call(server, 'GET', '/v1/news/stream/sessions', { key: KEY });
        for (const s of (sessions.json as { results: { events_sent: number }[] }).results)
          midway.push(s.events_sent);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    const response = await fetch(`${server.url}/v1/news/stream`, {
      headers: { 'x-api-key': KEY, 'last-event-id': position },
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const ids: number[] = [];
    let tail = '';
    const deadline = Date.now() + 60_000;
    while (ids.length < REPLAY && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = tail + decoder.decode(value, { stream: true });
      const cut = text.lastIndexOf('\n\n');
      if (cut === -1) {
        tail = text;
        continue;
      }
      tail = text.slice(cut + 2);
      for (const m of text.slice(0, cut + 2).matchAll(/^event: article\nid: (\d+)$/gm))
        ids.push(Number(m[1]));
    }
    replaying = false;
    await reader.cancel();
    await pinger;

    expect(ids).toHaveLength(REPLAY);
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
    expect(ids[0]).toBeGreaterThan(Number(position));
    expect(pings).toBeGreaterThan(2);
    expect(slowest).toBeLessThan(1000);
    // Other requests were answered in the middle of the replay, not only before and after it.
    expect(midway.some((n) => n > 0 && n < REPLAY)).toBe(true);
  }, 120_000);
});
