import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, type Spawned, spawnCollecting } from '../helpers/spawn.js';

/** `news mock serve` and `--mock` as a user runs them, through the built binary. */

const env = () => {
  const { NEWS_API_KEY: _key, NEWS_API_MOCK: _mock, ...rest } = process.env;
  return { ...rest, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'news-e2e-mock-')) };
};

type Run = Spawned;

const start = (args: string[]): Run => spawnCollecting(process.execPath, [BIN, ...args], env());

/** Resolves with stdout once it holds a whole line. */
async function firstLine(run: Run, timeoutMs = 20_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (!run.stdout().includes('\n')) {
    if (Date.now() > until || run.child.exitCode !== null)
      throw new Error(`no URL line; stderr: ${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return run.stdout();
}

describe('news mock serve', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'prints exactly one line, its URL, serves, and exits 0 on %s',
    async (signal) => {
      const run = start([
        'mock',
        'serve',
        '--port',
        '0',
        '--articles',
        '300',
        '--now',
        '2026-03-15T12:00:00Z',
      ]);
      try {
        const out = await firstLine(run);
        expect(out).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
        const url = out.trim();
        const ping = await fetch(`${url}/ping`);
        expect(await ping.json()).toBe('pong');
        const search = await fetch(`${url}/v1/news/everything?per_page=2`, {
          headers: { 'x-api-key': 'api_live_mock_pro' },
        });
        expect(search.status).toBe(200);
        run.child.kill(signal);
        expect(await run.exit).toBe(0);
        expect(run.stdout()).toBe(out);
        expect(run.stderr()).toMatch(/mock API ready/);
      } finally {
        if (run.child.exitCode === null) run.child.kill('SIGKILL');
      }
    },
    30_000,
  );

  it('refuses a bad option with exit 2 and nothing on stdout', async () => {
    const run = start(['mock', 'serve', '--port', '70000']);
    expect(await run.exit).toBe(2);
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toMatch(/--port must be a port/);
  });
});

describe('--mock on a command', () => {
  it('answers from the in-process mock, says so on stderr, keeps stdout for data', async () => {
    const run = start(['--mock', 'count', '--title', 'market']);
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toMatch(/^\d+\n$/);
    // In-process: no socket, no port (src/mock/in-process.ts).
    expect(run.stderr()).toMatch(/using the built-in mock \(in-process\)/);
  }, 30_000);
});
