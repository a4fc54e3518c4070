/**
 * The client tests' harness: a scripted server started before each test, a
 * client factory that records the back-off delays and retries, and the checks
 * they share. `server`, `delays` and `retries` are live bindings: read them
 * inside a test, not at import.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { NewsClient } from '../../../src/api/index.js';
import type { ClientOptions, RetryInfo } from '../../../src/api/index.js';
import { type ScriptServer, startServer } from './script-server.js';

export const KEY = 'api_live_SeCrEt_4711';

export let server: ScriptServer;
const clients: NewsClient[] = [];
export let delays: number[];
export let retries: RetryInfo[];

export function client(options: Partial<ClientOptions> = {}): NewsClient {
  const c = new NewsClient({
    version: '9.8.7',
    apiKey: KEY,
    baseUrl: server.url,
    env: {},
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    onRetry: (info) => retries.push(info),
    ...options,
  });
  clients.push(c);
  return c;
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(Error);
    return err as Error;
  }
  throw new Error('expected a rejection');
}

export function expectNoKey(err: Error): void {
  const text = `${err.message} ${(err as { hint?: string }).hint ?? ''} ${String(err.cause ?? '')} ${JSON.stringify(err)}`;
  expect(text).not.toContain(KEY);
}

/** A fresh server before each test of the file; clients and server closed after it. */
export function useClientHarness(): void {
  beforeEach(async () => {
    server = await startServer();
    delays = [];
    retries = [];
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server.close();
  });
}
