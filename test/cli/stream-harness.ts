/**
 * What the `news stream` CLI tests share: the mock (heartbeats and retries
 * 1,000 times faster), `news stream` against it, and waiting for the stream
 * to open before feeding it articles. `server` is a live binding: read it
 * inside a test.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { call, startTestServer } from '../mock/server-helpers.js';

export let server: MockServer;

/** The mock for a test file: started before its tests, closed after them. */
export function useStreamServer(): void {
  beforeAll(async () => {
    // 15 s heartbeats become 15 ms, `retry: 3000` becomes 3 ms.
    server = await startTestServer({ timeScale: 0.001 });
  });
  afterAll(() => server.close());
}

export const KEY = 'api_live_mock_pro';

export interface StreamOptions {
  key?: string;
  signal?: AbortSignal;
  tty?: number;
}

export function stream(args: string[], options: StreamOptions = {}) {
  return runCli(
    [
      'stream',
      '--base-url',
      server.url,
      '--api-key',
      options.key ?? KEY,
      '--retries',
      '0',
      ...args,
    ],
    {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.tty === undefined ? {} : { tty: options.tty }),
    },
  );
}

export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function post(titles: string[]): Promise<number[]> {
  const r = await call(server, 'POST', '/__mock/articles', {
    body: titles.map((title) => ({ title })),
  });
  expect(r.status).toBe(201);
  return (r.json as { ids: number[] }).ids;
}

/** Starts a stream, waits until the mock holds it, then runs `feed`. */
export async function streamWhile(
  args: string[],
  feed: () => Promise<void>,
  options: StreamOptions = {},
): Promise<CliResult> {
  const key = options.key ?? KEY;
  const before = server.streams.openedFor(key);
  const running = stream(args, options);
  await until(() => server.streams.openedFor(key) > before, 'the stream to open');
  await feed();
  return running;
}

export function ids(stdout: string): number[] {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);
}
