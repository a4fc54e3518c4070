/**
 * Live news: an outage is said as it happens and, by default, a
 * stream that worked rides out a service restart (the mock stopped and
 * started again on the same port) and resumes without loss or duplication;
 * a service whose ids are below the run's starting id is said at once.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { call, startTestServer } from '../mock/server-helpers.js';
import { KEY, ids, until } from './stream-harness.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(port = 0): Promise<MockServer> {
  // `retry: 3000` becomes 3 ms, heartbeats 15 ms.
  const server = await startTestServer({ timeScale: 0.001, port });
  servers.push(server);
  return server;
}

async function post(server: MockServer, articles: { title: string; id?: number }[]) {
  const r = await call(server, 'POST', '/__mock/articles', { body: articles });
  expect(r.status, r.text).toBe(201);
  return (r.json as { ids: number[] }).ids;
}

/** Articles the server has sent on the key's open streams. */
async function sent(server: MockServer): Promise<number> {
  const r = await call(server, 'GET', '/v1/news/stream/sessions', { key: KEY });
  const sessions = (r.json as { results?: { events_sent: number }[] }).results ?? [];
  return sessions.reduce((sum, s) => sum + s.events_sent, 0);
}

describe('news stream through a service restart', () => {
  for (const transport of ['sse', 'ws'] as const) {
    it(`notes every reconnect and resumes after the restart, nothing lost or twice (${transport})`, async () => {
      const first = await serve();
      const { port } = first;
      // No --retries: the default policy (the stream gave up after 4 attempts, 15 s).
      const running = runCli([
        'stream',
        '--base-url',
        first.url,
        '--api-key',
        KEY,
        '--transport',
        transport,
        '--title',
        'outage',
        '--max-events',
        '6',
      ]);
      await until(() => first.streams.openedFor(KEY) > 0, 'the stream to open');
      const before = await post(first, [
        { title: 'outage one' },
        { title: 'outage two' },
        { title: 'outage three' },
      ]);
      const deadline = Date.now() + 10_000;
      while ((await sent(first)) < 3 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));

      // The service goes away: the client's attempts are refused meanwhile.
      await first.close();
      servers.splice(servers.indexOf(first), 1);
      await new Promise((r) => setTimeout(r, 400));

      // …and comes back on the same port, with its index (the same ids) and what came meanwhile.
      const second = await serve(port);
      const last = before.at(-1)!;
      await post(second, [
        ...before.map((id, i) => ({ id, title: `outage ${['one', 'two', 'three'][i]}` })),
        { id: last + 1, title: 'outage four' },
        { id: last + 2, title: 'outage five' },
      ]);
      await until(() => second.streams.openedFor(KEY) > 0, 'the stream to reconnect');
      await post(second, [{ id: last + 3, title: 'outage six' }]);

      const r = await running;
      expect(r.code, r.stderr).toBe(0);
      expect(ids(r.stdout)).toEqual([...before, last + 1, last + 2, last + 3]);
      // Without -v: the drop, the failed attempts, the way back.
      expect(r.stderr).toMatch(
        new RegExp(
          `^note: \\S+Z the stream dropped \\(.+\\); reconnecting in \\d+ ms after id ${last}$`,
          'm',
        ),
      );
      expect(r.stderr).toMatch(
        /^note: \S+Z reconnect failed \(connection refused\), down \d+ s; reconnecting in \d+ ms after id \d+ \(gives up after 5 min down\)$/m,
      );
      expect(r.stderr).toMatch(
        new RegExp(
          `^note: \\S+Z the stream is back after \\d+ s down \\(\\d+ failed attempts?\\), resuming after id ${last}$`,
          'm',
        ),
      );
      expect(r.stderr).not.toMatch(/^error:/m);
    }, 30_000);
  }

  it('--retries N still bounds it: N failed attempts, then exit 5 naming them', async () => {
    const server = await serve();
    const running = runCli([
      'stream',
      '--base-url',
      server.url,
      '--api-key',
      KEY,
      '--retries',
      '2',
    ]);
    await until(() => server.streams.openedFor(KEY) > 0, 'the stream to open');
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const r = await running;
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /^error: cannot keep the stream from .* open \(connection refused\) after 3 attempts$/m,
    );
    expect(r.stderr).toMatch(/\(attempt 3 of 3\)$/m);
  }, 30_000);
});

describe('news stream --state past the service', () => {
  const newState = () => join(mkdtempSync(join(tmpdir(), 'news-stream-behind-')), 'h.st.json');

  for (const transport of ['sse', 'ws'] as const) {
    it(`says at once that the service is below the watermark, with what to do (${transport})`, async () => {
      const server = await serve();
      // Something indexed, so the WebSocket's `connected` tells a position.
      await post(server, [{ title: 'behind zero' }]);
      const state = newState();
      const out = join(state, '..', 'h.jsonl');
      // A first run makes the state; then the watermark is edited far ahead.
      const made = await runCli([
        'stream',
        '--base-url',
        server.url,
        '--api-key',
        KEY,
        '--title',
        'behind',
        '--state',
        state,
        '-o',
        out,
        '--duration',
        '200ms',
      ]);
      expect(made.code, made.stderr).toBe(0);
      const saved = JSON.parse(readFileSync(state, 'utf8')) as { watermark: { value: number } };
      saved.watermark.value = 999999999999;
      writeFileSync(state, JSON.stringify(saved));

      const before = server.streams.openedFor(KEY);
      const running = runCli([
        'stream',
        '--base-url',
        server.url,
        '--api-key',
        KEY,
        '--title',
        'behind',
        '--state',
        state,
        '-o',
        out,
        '--transport',
        transport,
        '--duration',
        '1500ms',
      ]);
      await until(() => server.streams.openedFor(KEY) > before, 'the stream to open');
      const posted = await post(server, [{ title: 'behind one' }, { title: 'behind two' }]);
      const r = await running;
      expect(r.code, r.stderr).toBe(0);
      const told = transport === 'ws' ? 'is at id \\d+' : `sent id ${posted[0]}`;
      expect(r.stderr).toMatch(
        new RegExp(
          `^warning: the service ${told}, below the watermark 999999999999 of .*h\\.st\\.json: nothing is written until its ids pass 999999999999; .*--state-reset starts the state afresh$`,
          'm',
        ),
      );
      expect(r.stderr.match(/^warning: the service/gm)).toHaveLength(1);
      expect(readFileSync(out, 'utf8')).toBe('');
    }, 30_000);
  }
});
