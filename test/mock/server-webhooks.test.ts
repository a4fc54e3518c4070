import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { call, startTestServer } from './server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Created {
  id: number;
  secret: string;
  status: string;
  url: string;
  filters: Record<string, unknown>;
}
interface View {
  id: number;
  status: string;
  url: string;
  filters: Record<string, unknown>;
}

async function create(
  apiKey: string,
  url = 'https://hooks.example/in',
  filters: unknown = { title: 'Ada' },
) {
  return call(server, 'POST', '/__mock/webhooks', { body: { url, filters, api_key: apiKey } });
}

describe('mock server: admin webhooks', () => {
  it('creates a subscription without a key and shows the secret only then', async () => {
    const r = await create('api_live_mock_pro');
    expect(r.status).toBe(201);
    const created = r.json as Created;
    expect(created).toMatchObject({
      status: 'active',
      url: 'https://hooks.example/in',
      filters: { title: 'Ada' },
    });
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const got = await call(server, 'GET', `/v1/webhooks/${created.id}`, {
      key: 'api_live_mock_pro',
    });
    expect(got.status).toBe(200);
    expect(got.json).not.toHaveProperty('secret');
    expect(got.text).not.toContain(created.secret);
  });

  it('enforces the per-plan webhook limit (Free: 1)', async () => {
    expect((await create('api_live_mock_free')).status).toBe(201);
    const second = await create('api_live_mock_free');
    expect(second.status).toBe(403);
    expect((second.json as { errors: { message: string }[] }).errors[0]?.message).toMatch(
      /Free plan allows 1 webhook/,
    );
  });

  it('rejects unknown keys, bad URLs and non-object filters', async () => {
    expect((await create('api_live_nobody')).status).toBe(400);
    expect((await create('api_live_mock_basic', 'ftp://x')).status).toBe(400);
    expect((await create('api_live_mock_basic', 'not a url')).status).toBe(400);
    expect((await create('api_live_mock_basic', 'https://x.example', [1])).status).toBe(400);
  });
});

describe('mock server: /v1/webhooks', () => {
  it('lists only the caller’s subscriptions; another account’s id is not found', async () => {
    const mine = (await create('api_live_mock_starter')).json as Created;
    const theirs = (await create('api_live_mock_basic')).json as Created;
    const list = await call(server, 'GET', '/v1/webhooks', { key: 'api_live_mock_starter' });
    expect(list.status).toBe(200);
    const ids = (list.json as { status: string; results: View[] }).results.map((w) => w.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(
      (await call(server, 'GET', `/v1/webhooks/${theirs.id}`, { key: 'api_live_mock_starter' }))
        .status,
    ).toBe(404);
    const patch = await call(server, 'PATCH', `/v1/webhooks/${theirs.id}`, {
      key: 'api_live_mock_starter',
      body: { status: 'paused' },
    });
    expect(patch.status).toBe(404);
  });

  it('pauses and resumes with PATCH, and updates url and filters', async () => {
    const key = 'api_live_mock_starter';
    const { id } = (await create(key)).json as Created;
    const paused = await call(server, 'PATCH', `/v1/webhooks/${id}`, {
      key,
      body: { status: 'paused' },
    });
    expect(paused.status).toBe(200);
    expect((paused.json as View).status).toBe('paused');
    const resumed = await call(server, 'PATCH', `/v1/webhooks/${id}`, {
      key,
      body: { status: 'active' },
    });
    expect((resumed.json as View).status).toBe('active');
    const moved = await call(server, 'PATCH', `/v1/webhooks/${id}`, {
      key,
      body: { url: 'https://new.example/hook', filters: { 'language.code': 'fr' } },
    });
    expect(moved.json).toMatchObject({
      url: 'https://new.example/hook',
      filters: { 'language.code': 'fr' },
    });
  });

  it('refuses bad PATCH values without changing anything', async () => {
    const key = 'api_live_mock_starter';
    const { id } = (await create(key)).json as Created;
    for (const body of [
      { status: 'disabled' },
      { status: 'on' },
      { url: 'nope', status: 'paused' },
      { filters: 'x' },
    ]) {
      const r = await call(server, 'PATCH', `/v1/webhooks/${id}`, { key, body });
      expect([body, r.status]).toEqual([body, 400]);
    }
    expect((await call(server, 'PATCH', `/v1/webhooks/${id}`, { key, rawBody: '[]' })).status).toBe(
      400,
    );
    const after = (await call(server, 'GET', `/v1/webhooks/${id}`, { key })).json as View;
    expect(after).toMatchObject({ status: 'active', url: 'https://hooks.example/in' });
  });

  it('keeps a disabled subscription disabled through PATCH; the dashboard enable brings it back', async () => {
    const key = 'api_live_mock_starter';
    const { id } = (await create(key)).json as Created;
    // What the dispatcher does after 3 failed deliveries.
    server.webhooks.getAny(id).status = 'disabled';
    for (const status of ['active', 'paused']) {
      const r = await call(server, 'PATCH', `/v1/webhooks/${id}`, { key, body: { status } });
      expect([status, r.status]).toEqual([status, 409]);
      expect((r.json as { errors: { message: string }[] }).errors[0]?.message).toMatch(/enable/);
    }
    const enabled = await call(server, 'POST', `/__mock/webhooks/${id}/enable`);
    expect(enabled.status).toBe(200);
    expect((enabled.json as View).status).toBe('active');
    // Enabling a paused one is the owner's job (PATCH), not the dashboard's.
    await call(server, 'PATCH', `/v1/webhooks/${id}`, { key, body: { status: 'paused' } });
    expect((await call(server, 'POST', `/__mock/webhooks/${id}/enable`)).status).toBe(409);
    expect((await call(server, 'POST', '/__mock/webhooks/99999/enable')).status).toBe(404);
  });

  it('deletes, after which the id is gone', async () => {
    const key = 'api_live_mock_starter';
    const { id } = (await create(key)).json as Created;
    const r = await call(server, 'DELETE', `/v1/webhooks/${id}`, { key });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'ok', id, deleted: true });
    expect((await call(server, 'GET', `/v1/webhooks/${id}`, { key })).status).toBe(404);
    expect((await call(server, 'DELETE', `/v1/webhooks/${id}`, { key })).status).toBe(404);
  });

  it('lets the readonly key read but not write, and writes cost nothing', async () => {
    const key = 'api_live_mock_readonly';
    const { id } = (await create(key)).json as Created;
    const get = await call(server, 'GET', `/v1/webhooks/${id}`, { key });
    expect(get.status).toBe(200);
    expect(get.headers.get('x-points-used')).toBe('0');
    const patch = await call(server, 'PATCH', `/v1/webhooks/${id}`, {
      key,
      body: { status: 'paused' },
    });
    expect(patch.status).toBe(403);
    expect((patch.json as { errors: { message: string }[] }).errors[0]?.message).toMatch(
      /webhooks:write/,
    );
    expect((await call(server, 'DELETE', `/v1/webhooks/${id}`, { key })).status).toBe(403);
    expect(((await call(server, 'GET', `/v1/webhooks/${id}`, { key })).json as View).status).toBe(
      'active',
    );
  });
});

describe('mock server: admin articles, deliveries, accounts', () => {
  it('indexes posted articles so the store and directories see them', async () => {
    const r = await call(server, 'POST', '/__mock/articles', {
      body: [
        { title: 'Fresh news about nothing' },
        { id: 5000, title: 'Second', published_at: '2026-03-15T11:00:00Z' },
      ],
    });
    expect(r.status).toBe(201);
    const { indexed, ids } = r.json as { indexed: number; ids: number[] };
    expect(indexed).toBe(2);
    expect(ids[1]).toBe(5000);
    expect(server.store.article(5000)?.title).toBe('Second');
    // Newest first in the index, with the time column in step.
    const t = server.store.table;
    expect(server.store.articles[0]?.id).toBe(ids[0]);
    expect(t.published.data[t.order[0]!]).toBe(Date.parse(server.store.articles[0]!.published_at));
    // Ids grow in indexing order: one at or below the newest is refused, naming the newest.
    const again = await call(server, 'POST', '/__mock/articles', { body: [{ id: 5000 }] });
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.json)).toContain('newest indexed id, 5000');
    const lower = await call(server, 'POST', '/__mock/articles', { body: [{ id: 4000 }] });
    expect(lower.status).toBe(400);
    // Within one request too, and then nothing of the request is indexed.
    const size = server.store.size;
    const mixed = await call(server, 'POST', '/__mock/articles', {
      body: [{ id: 6000 }, { id: 5500 }],
    });
    expect(mixed.status).toBe(400);
    expect(server.store.size).toBe(size);
    expect((await call(server, 'POST', '/__mock/articles', { body: 'x' })).status).toBe(400);
  });

  it('returns the delivery log, filtered by webhook_id (dispatcher: test/mock/webhook-dispatcher.test.ts)', async () => {
    const r = await call(server, 'GET', '/__mock/deliveries');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'ok', results: expect.any(Array) });
    const one = await call(server, 'GET', '/__mock/deliveries?webhook_id=999999');
    expect(one.json).toEqual({ status: 'ok', results: [] });
    expect((await call(server, 'GET', '/__mock/deliveries?webhook_id=x')).status).toBe(400);
  });

  it('needs no key, is never faulted and shows balances', async () => {
    const r = await call(server, 'GET', '/__mock/accounts', {
      headers: { 'x-mock-scenario': '500' },
    });
    expect(r.status).toBe(200);
    const results = (r.json as { results: { key: string; points: number }[] }).results;
    expect(results.find((a) => a.key === 'api_live_mock_empty')?.points).toBe(0);
  });
});
