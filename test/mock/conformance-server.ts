/**
 * Plumbing of the conformance tests: the real server over the committed
 * fixtures with a frozen clock, and requests that check the headers every
 * answer must carry (the error envelope's check is in server-helpers.ts).
 */
import { expect } from 'vitest';
import type { Article } from '../../src/mock/fixtures/types.js';
import { type MockServer, type MockServerOptions, startMockServer } from '../../src/mock/server.js';
import { type CallOptions, type CallResult, call } from './server-helpers.js';

export const NOW = new Date('2026-03-15T12:00:00Z');
export const PRO = 'api_live_mock_pro';
export const TEST = 'api_test_mock_basic';
export const FREE = 'api_live_mock_free';

/** The committed fixtures, `--now` fixed; the mock clock barely moves so windows cannot shift mid-test. */
export function startConformanceServer(options: MockServerOptions = {}): Promise<MockServer> {
  return startMockServer({ quiet: true, now: NOW, timeScale: 1e9, ...options });
}

/** Any request; fails when an answer lacks a header the specification puts on every answer. */
export async function api(
  server: MockServer,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const r = await call(server, method, path, options);
  const h = r.headers;
  expect(h.get('x-service-mode'), `${method} ${path}: x-service-mode`).toMatch(/^(live|test)$/);
  expect(h.get('access-control-allow-origin'), `${method} ${path}: CORS`).toBe('*');
  expect(h.get('x-request-id'), `${method} ${path}: X-Request-Id`).toMatch(/^req_[0-9a-f]{16}$/);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(h.get(name), `${method} ${path}: ${name}`).toMatch(/^\d+$/);
  return r;
}

export const search = (server: MockServer, body: Record<string, unknown>, key = PRO) =>
  api(server, 'POST', '/v1/news/everything', { key, body });

export interface Page {
  status: string;
  page: number;
  limit: number;
  has_next_pages: boolean;
  next_page: string;
  results: Article[];
  highlighting?: Record<string, Record<string, string[]>>;
  facets?: Record<string, { value: string; count: number }[]>;
  meta?: { prompt?: { applied: Record<string, string> }; warnings?: { code: string }[] };
}

export const page = (r: CallResult): Page => {
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return r.json as Page;
};
export const ids = (r: CallResult): number[] => page(r).results.map((a) => a.id);
