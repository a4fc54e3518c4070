import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { TEST_KEY, apiFlags, useRecordingServer } from '../helpers/recording-server.js';

const KEY = TEST_KEY;
const server = useRecordingServer();
const api = () => apiFlags(server);
let headers: Record<string, string> = {};
let balance = 500;

beforeEach(() => {
  balance = 500;
  server.respondWith((req) => {
    if (req.url === '/v1/balance')
      return { body: { api_key: KEY, points: balance, plan: 'Basic' } };
    balance -= 1;
    return {
      headers,
      body: { status: 'ok', page: 1, has_next_pages: false, results: [{ id: 1, name: 'A' }] },
    };
  });
});

describe('-v reports the points a command used', () => {
  it('from X-Points-Used / X-Points-Remaining when the server sends them', async () => {
    headers = { 'x-points-used': '1', 'x-points-remaining': '499' };
    const r = await runCli(['people', ...api(), '-v', '-f', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('debug: points: 1 used, 499 remaining (1 request)');
  });

  it('from the balance before and after when the headers are absent', async () => {
    headers = {};
    const r = await runCli(['search', ...api(), '-v', '-f', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('debug: points: 1 used by balance, 499 remaining (1 request)');
    expect(server.requests.map((q) => q.url)).toEqual([
      '/v1/balance',
      '/v1/news/everything',
      '/v1/balance',
    ]);
  });

  it('says nothing, and sends nothing extra, without -v', async () => {
    headers = { 'x-points-used': '1', 'x-points-remaining': '499' };
    const r = await runCli(['people', ...api(), '-f', 'json']);
    expect(r.stderr).not.toContain('points');
    expect(server.requests).toHaveLength(1);
  });

  it('a test key uses none', async () => {
    headers = { 'x-service-mode': 'test' };
    const r = await runCli(['people', ...api(), '-v', '-f', 'json']);
    expect(r.stderr).toContain('debug: points: none used (test key; 1 request)');
  });
});
