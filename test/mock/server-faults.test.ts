import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { call, startTestServer } from './server-helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer({ timeScale: 0.05 });
});
afterAll(() => server.close());

const pro = { key: 'api_live_mock_pro' };
const scenario = (name: string) => ({ ...pro, headers: { 'x-mock-scenario': name } });

describe('mock server: X-Mock-Scenario', () => {
  it.each(['500', '502'])(
    '%s answers that status with the error envelope and the usual headers',
    async (status) => {
      const r = await call(server, 'POST', '/v1/news/everything', scenario(status));
      expect(r.status).toBe(Number(status));
      const body = r.json as { status: string; errors: { status: number; message: string }[] };
      expect(body.status).toBe('not_ok');
      expect(body.errors[0]?.status).toBe(Number(status));
      expect(r.headers.get('x-service-mode')).toBe('live');
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
    },
  );

  it('429 answers with Retry-After: 1', async () => {
    const r = await call(server, 'GET', '/v1/people', scenario('429'));
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
    expect((r.json as { errors: unknown[] }).errors).toHaveLength(1);
  });

  it('faults come before auth and metering: nothing is charged', async () => {
    const before = server.accounts.get('api_live_mock_pro')!.points;
    await call(server, 'POST', '/v1/news/everything', scenario('500'));
    expect(server.accounts.get('api_live_mock_pro')!.points).toBe(before);
    // Even a request without a key gets the forced fault.
    expect(
      (await call(server, 'GET', '/v1/balance', { headers: { 'x-mock-scenario': '502' } })).status,
    ).toBe(502);
  });

  it('timeout never answers; the client gives up, the server keeps serving', async () => {
    const started = Date.now();
    await expect(
      call(server, 'GET', '/v1/balance', {
        ...scenario('timeout'),
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow(/timeout|aborted/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect((await call(server, 'GET', '/v1/balance', pro)).status).toBe(200);
  });

  it('reset destroys the connection without an answer', async () => {
    await expect(call(server, 'GET', '/v1/balance', scenario('reset'))).rejects.toThrow(
      /fetch failed/,
    );
    expect((await call(server, 'GET', '/ping')).status).toBe(200);
  });

  it('slow waits about 2 s × time scale, then answers normally', async () => {
    const started = performance.now();
    const r = await call(server, 'GET', '/v1/balance', scenario('slow'));
    const elapsed = performance.now() - started;
    expect(r.status).toBe(200);
    expect(elapsed).toBeGreaterThanOrEqual(95); // 2000 ms × 0.05
    expect(elapsed).toBeLessThan(1500);
  });

  it('answers 400 for an unknown scenario, naming the valid ones', async () => {
    const r = await call(server, 'GET', '/v1/balance', scenario('explode'));
    expect(r.status).toBe(400);
    expect((r.json as { errors: { message: string }[] }).errors[0]?.message).toContain('timeout');
  });
});

describe('mock server: --fail-rate and --latency', () => {
  async function statuses(seed: number, n: number): Promise<number[]> {
    const s = await startTestServer({ failRate: 0.3, seed });
    try {
      const out: number[] = [];
      for (let i = 0; i < n; i++)
        out.push((await call(s, 'GET', i % 2 ? '/ping' : '/v1/balance', pro)).status);
      return out;
    } finally {
      await s.close();
    }
  }

  it('fails a seeded, reproducible share of requests with 500 or 502', async () => {
    const a = await statuses(42, 60);
    const b = await statuses(42, 60);
    const c = await statuses(43, 60);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const failed = a.filter((s) => s !== 200);
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.length).toBeLessThan(35);
    expect(new Set(failed)).toEqual(new Set([500, 502]));
  });

  it('fails nothing at rate 0 and everything at rate 1', async () => {
    const all = await startTestServer({ failRate: 1 });
    try {
      expect((await call(all, 'GET', '/ping')).status).toBeGreaterThanOrEqual(500);
      // Admin routes stand outside the API and are never faulted.
      expect((await call(all, 'GET', '/__mock/deliveries')).status).toBe(200);
    } finally {
      await all.close();
    }
    const none = await startTestServer({ failRate: 0, seed: 42 });
    try {
      for (let i = 0; i < 30; i++) expect((await call(none, 'GET', '/ping')).status).toBe(200);
    } finally {
      await none.close();
    }
  });

  it('adds the latency to every answer, preflights and errors included', async () => {
    const slow = await startTestServer({ latencyMs: 120 });
    try {
      for (const [method, path] of [
        ['GET', '/ping'],
        ['GET', '/v1/balance'],
        ['OPTIONS', '/v1/people'],
      ] as const) {
        const started = performance.now();
        await call(slow, method, path);
        expect(performance.now() - started).toBeGreaterThanOrEqual(110);
      }
    } finally {
      await slow.close();
    }
  });

  it('rejects a fail rate outside 0..1', async () => {
    await expect(startTestServer({ failRate: 1.5 })).rejects.toThrow(/between 0 and 1/);
  });
});

describe('mock server: shutdown', () => {
  it('closes at once with a held request, an open stream and keep-alive sockets', async () => {
    const s = await startTestServer();
    await call(s, 'GET', '/ping'); // leaves a keep-alive socket
    const held = call(s, 'GET', '/v1/balance', scenario('timeout'));
    const stream = fetch(`${s.url}/v1/news/stream`, {
      headers: { 'x-api-key': 'api_live_mock_pro' },
    });
    const response = await stream;
    expect(response.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    await s.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(held).rejects.toThrow();
    await expect(response.text()).rejects.toThrow();
  });
});
