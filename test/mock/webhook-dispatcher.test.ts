import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../../src/mock/delivery-log.js';
import { createSearchEngine } from '../../src/mock/search/index.js';
import { TEST_MODE_MARKER } from '../../src/mock/search/test-mode.js';
import type { MockServer, MockServerOptions } from '../../src/mock/server.js';
import {
  type Receiver,
  expectedSignature,
  startReceiver,
  until,
} from '../helpers/webhook-receiver.js';
import { makeStore } from './server-fixture.js';
import { call, startTestServer } from './server-helpers.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

/** A mock on the small hand-made store with the real search engine (filters are search parameters). */
async function mock(options: MockServerOptions = {}): Promise<MockServer> {
  const server = await startTestServer({
    store: makeStore(),
    searchEngine: createSearchEngine,
    ...options,
  });
  open.push(server);
  return server;
}

async function receiver(respond?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(respond);
  open.push(r);
  return r;
}

async function subscribe(
  server: MockServer,
  url: string,
  filters: Record<string, unknown> = {},
  apiKey = 'api_live_mock_pro',
): Promise<{ id: number; secret: string }> {
  const r = await call(server, 'POST', '/__mock/webhooks', {
    body: { url, filters, api_key: apiKey },
  });
  expect(r.status).toBe(201);
  return r.json as { id: number; secret: string };
}

async function post(server: MockServer, articles: object[]): Promise<number[]> {
  const r = await call(server, 'POST', '/__mock/articles', { body: articles });
  expect(r.status).toBe(201);
  return (r.json as { ids: number[] }).ids;
}

async function log(server: MockServer, webhookId?: number): Promise<DeliveryAttempt[]> {
  const path =
    webhookId === undefined ? '/__mock/deliveries' : `/__mock/deliveries?webhook_id=${webhookId}`;
  return ((await call(server, 'GET', path)).json as { results: DeliveryAttempt[] }).results;
}

const titled = (title: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ title: `${title} item ${i}` }));

interface Payload {
  event: string;
  webhook_id: number;
  delivered_at: string;
  articles: { id: number; title: string; body: string }[];
}

describe('mock webhook dispatcher', () => {
  it('sends matching articles in signed batches of at most 100, with the five headers, and bills 1 point each', async () => {
    const server = await mock();
    const hook = await receiver();
    const { id, secret } = await subscribe(server, hook.url, { title: 'Quantum' });
    const ids = await post(server, [...titled('Quantum', 150), ...titled('Weather', 20)]);
    await until(() => hook.received.length === 2);
    await until(() => server.deliveries.size === 2);

    const payloads = hook.received.map((r) => JSON.parse(r.body) as Payload);
    const got = payloads.flatMap((p) => p.articles.map((a) => a.id)).sort((a, b) => a - b);
    expect(got).toEqual(ids.slice(0, 150));
    expect(payloads.map((p) => p.articles.length).sort((a, b) => a - b)).toEqual([50, 100]);
    for (const [i, r] of hook.received.entries()) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-webhook-id']).toBe(String(id));
      expect(r.headers['x-webhook-delivery-id']).toMatch(/^dlv_[0-9a-f]+$/);
      const timestamp = r.headers['x-webhook-timestamp'] as string;
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(30);
      expect(r.headers['x-webhook-signature']).toBe(expectedSignature(secret, timestamp, r.body));
      expect(payloads[i]).toMatchObject({ event: 'articles.new', webhook_id: id });
      expect(payloads[i]!.delivered_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(new Set(hook.received.map((r) => r.headers['x-webhook-delivery-id'])).size).toBe(2);

    const entries = await log(server, id);
    expect(entries.map((e) => [e.attempt, e.outcome, e.status])).toEqual([
      [1, 'delivered', 200],
      [1, 'delivered', 200],
    ]);
    expect(entries.map((e) => e.points).reduce((a, b) => a + b)).toBe(150);
    const accounts = (await call(server, 'GET', '/__mock/accounts')).json as {
      results: { key: string; points_used: number }[];
    };
    expect(accounts.results.find((a) => a.key === 'api_live_mock_pro')?.points_used).toBe(150);
  });

  it('gives test keys preview text and bills nothing', async () => {
    const server = await mock();
    const hook = await receiver();
    await subscribe(server, hook.url, {}, 'api_test_mock_basic');
    await post(server, [{ title: 'Preview me', body: 'x'.repeat(500) }]);
    await until(() => server.deliveries.size === 1);
    const payload = JSON.parse(hook.received[0]!.body) as Payload;
    expect(payload.articles[0]!.body.endsWith(TEST_MODE_MARKER)).toBe(true);
    expect(payload.articles[0]!.body.length).toBeLessThan(300);
    expect((await log(server))[0]!.points).toBe(0);
    expect(server.accounts.get('api_test_mock_basic')!.used).toBe(0);
  });

  it('starts a new subscription with articles indexed after it; paused subscriptions get nothing', async () => {
    const server = await mock();
    const hook = await receiver();
    await post(server, titled('Before', 3));
    const { id } = await subscribe(server, hook.url);
    const [fresh] = await post(server, titled('After', 1));
    await until(() => server.deliveries.size === 1);
    expect((JSON.parse(hook.received[0]!.body) as Payload).articles.map((a) => a.id)).toEqual([
      fresh,
    ]);

    const key = 'api_live_mock_pro';
    const paused = await call(server, 'PATCH', `/v1/webhooks/${id}`, {
      key,
      body: { status: 'paused' },
    });
    expect(paused.status).toBe(200);
    await post(server, titled('While paused', 5));
    await call(server, 'PATCH', `/v1/webhooks/${id}`, { key, body: { status: 'active' } });
    const [resumed] = await post(server, titled('Resumed', 1));
    await until(() => server.deliveries.size === 2);
    expect(hook.received).toHaveLength(2);
    expect((JSON.parse(hook.received[1]!.body) as Payload).articles.map((a) => a.id)).toEqual([
      resumed,
    ]);
  });

  it('retries after 1, 5 and 30 mock minutes (time scale 0.001), same delivery id, then delivers', async () => {
    const scale = 0.001;
    const server = await mock({ timeScale: scale });
    const hook = await receiver((_r, i) => (i < 3 ? 503 : 204));
    const { id, secret } = await subscribe(server, hook.url);
    await post(server, titled('Retry', 2));
    await until(() => server.deliveries.size === 4, 20_000);

    const entries = await log(server, id);
    expect(entries.map((e) => [e.attempt, e.status, e.outcome])).toEqual([
      [1, 503, 'retry_scheduled'],
      [2, 503, 'retry_scheduled'],
      [3, 503, 'retry_scheduled'],
      [4, 204, 'delivered'],
    ]);
    expect(new Set(entries.map((e) => e.delivery_id)).size).toBe(1);
    expect(new Set(hook.received.map((r) => r.headers['x-webhook-delivery-id'])).size).toBe(1);
    // Each attempt is signed afresh with its own timestamp.
    for (const r of hook.received) {
      const t = r.headers['x-webhook-timestamp'] as string;
      expect(r.headers['x-webhook-signature']).toBe(expectedSignature(secret, t, r.body));
    }
    // Wall-clock gaps: the delay × time scale, plus scheduling slack (never less).
    const expectedGaps = [1, 5, 30].map((min) => min * 60_000 * scale);
    for (const [i, gap] of expectedGaps.entries()) {
      const actual = hook.received[i + 1]!.at - hook.received[i]!.at;
      expect(actual).toBeGreaterThanOrEqual(gap * 0.95);
      expect(actual).toBeLessThan(gap + 750);
    }
    // On the mock clock (1 wall ms = 1 mock s here): the next attempt is announced the
    // table's delay after the failed one, and is sent when announced.
    for (const [i, e] of entries.slice(0, 3).entries()) {
      const announced = Date.parse(e.next_attempt_at!);
      const waited = announced - Date.parse(e.sent_at);
      expect(waited).toBeGreaterThanOrEqual([1, 5, 30][i]! * 60_000);
      expect(waited).toBeLessThan([1, 5, 30][i]! * 60_000 + 750_000);
      const sent = Date.parse(entries[i + 1]!.sent_at);
      // One mock second is one wall millisecond here: a timer may fire within it.
      expect(sent).toBeGreaterThanOrEqual(announced - 1000);
      expect(sent - announced).toBeLessThan(750_000);
    }
    expect(entries[3]!.points).toBe(2);
  });

  it('marks a delivery failed after 5 attempts, disables after 3 failed deliveries, re-enables through the admin route', async () => {
    const server = await mock({ timeScale: 0.00001 });
    let healthy = false;
    const hook = await receiver(() => (healthy ? 200 : 500));
    const { id } = await subscribe(server, hook.url);
    for (let n = 0; n < 3; n++) {
      await post(server, titled(`Batch${n}`, 1));
      await until(
        () => server.deliveries.list(id).filter((e) => e.outcome === 'failed').length === n + 1,
      );
      const status = (
        await call(server, 'GET', `/v1/webhooks/${id}`, {
          key: 'api_live_mock_pro',
        })
      ).json as { status: string; consecutive_failures: number };
      expect(status).toMatchObject({
        status: n < 2 ? 'active' : 'disabled',
        consecutive_failures: n + 1,
      });
    }
    const entries = await log(server, id);
    expect(entries).toHaveLength(15);
    for (const attempts of [entries.slice(0, 5), entries.slice(5, 10), entries.slice(10)]) {
      expect(attempts.map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5]);
      expect(attempts.map((e) => e.outcome)).toEqual([
        'retry_scheduled',
        'retry_scheduled',
        'retry_scheduled',
        'retry_scheduled',
        'failed',
      ]);
      expect(attempts.every((e) => e.points === 0 && e.error === 'HTTP 500')).toBe(true);
    }
    expect(server.accounts.get('api_live_mock_pro')!.used).toBe(0);

    // Disabled: nothing is sent, and PATCH cannot revive it.
    await post(server, titled('Ignored', 1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hook.received).toHaveLength(15);
    const patch = await call(server, 'PATCH', `/v1/webhooks/${id}`, {
      key: 'api_live_mock_pro',
      body: { status: 'active' },
    });
    expect(patch.status).toBe(409);

    const enabled = await call(server, 'POST', `/__mock/webhooks/${id}/enable`);
    expect(enabled.json).toMatchObject({ status: 'active', consecutive_failures: 0 });
    healthy = true;
    const [after] = await post(server, titled('Back', 1));
    await until(() => server.deliveries.list(id).length === 16);
    expect(server.deliveries.list(id)[15]).toMatchObject({
      outcome: 'delivered',
      article_ids: [after],
      points: 1,
    });
  });

  it('counts no answer within the timeout as a failed attempt', async () => {
    const server = await mock({ timeScale: 0.00001 });
    const hook = await receiver((_r, i) => (i === 0 ? 'hang' : 200));
    await subscribe(server, hook.url);
    await post(server, titled('Slow', 1));
    await until(() => server.deliveries.size === 2);
    const [first, second] = server.deliveries.list();
    expect(first).toMatchObject({ attempt: 1, status: null, error: 'timeout' });
    expect(second).toMatchObject({ attempt: 2, status: 200, outcome: 'delivered' });
  });

  it('rejects malformed admin bodies with one 400 naming the fields', async () => {
    const server = await mock();
    const r = await call(server, 'POST', '/__mock/webhooks', {
      body: { url: 42, filters: [1] },
    });
    expect(r.status).toBe(400);
    const message = (r.json as { errors: { message: string }[] }).errors[0]!.message;
    expect(message).toMatch(/url/);
    expect(message).toMatch(/filters/);
    expect(message).toMatch(/api_key/);
  });
});
