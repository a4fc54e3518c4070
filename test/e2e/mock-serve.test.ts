import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/server.js';
import { BIN, type Spawned, spawnCollecting } from '../helpers/spawn.js';

/** `news mock serve` and `--mock` as a user runs them, through the built binary. */

const env = (cache = mkdtempSync(join(tmpdir(), 'news-e2e-cache-'))) => {
  const { NEWS_API_KEY: _key, NEWS_API_MOCK: _mock, ...rest } = process.env;
  return {
    ...rest,
    XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'news-e2e-mock-')),
    // `mock serve --articles` keeps grown sets there (src/mock/store/grown-cache.ts).
    XDG_CACHE_HOME: cache,
  };
};

type Run = Spawned;

const start = (args: string[], cache?: string): Run =>
  spawnCollecting(process.execPath, [BIN, ...args], env(cache));

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

describe('mock serve --articles', () => {
  it('makes its extras on worker threads into the same data as one thread does, and keeps them for the next start', async () => {
    // Above the threshold for threads (src/mock/store/extras.ts); the sources'
    // own server makes them on its one thread.
    const now = '2026-03-15T12:00:00Z';
    const articles = 25_000;
    const cache = mkdtempSync(join(tmpdir(), 'news-e2e-cache-'));
    const args = ['mock', 'serve', '--port', '0', '--articles', String(articles), '--now', now];
    const run = start(args, cache);
    let again: Run | undefined;
    const here = await startMockServer({
      quiet: true,
      articles,
      now: new Date(now),
      timeScale: 1e9,
    });
    try {
      const url = (await firstLine(run, 60_000)).trim();
      const ask = async (base: string, body: Record<string, unknown>) => {
        const r = await fetch(`${base}/v1/news/everything`, {
          method: 'POST',
          headers: { 'x-api-key': 'api_live_mock_pro', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const answer = (await r.json()) as { results: unknown[]; facets?: unknown };
        return { results: answer.results, facets: answer.facets };
      };
      const bodies = [
        { 'sort.by': 'id', per_page: 20 },
        { 'sort.by': 'engagement', 'language.code': 'en', per_page: 20, page: 3 },
        { title: 'market', 'facet.field': 'source.id', per_page: 5 },
        { 'published_at.start': '2025-09-01', 'published_at.end': '2025-09-03', per_page: 50 },
      ];
      for (const body of bodies) expect(await ask(url, body)).toEqual(await ask(here.url, body));
      // The second start reads the set the first one kept.
      again = start(args, cache);
      const keptUrl = (await firstLine(again, 60_000)).trim();
      expect(readdirSync(join(cache, 'news', 'mock'))).toHaveLength(1);
      for (const body of bodies)
        expect(await ask(keptUrl, body)).toEqual(await ask(here.url, body));
    } finally {
      await here.close();
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      if (again !== undefined && again.child.exitCode === null) again.child.kill('SIGKILL');
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);

  it('stops on Ctrl-C while a large set is still being made: exit 0, no URL, nothing kept', async () => {
    // 400,000 extras take seconds on two threads; the signal comes well before.
    const cache = mkdtempSync(join(tmpdir(), 'news-e2e-cache-'));
    const run = start(['mock', 'serve', '--port', '0', '--articles', '400000'], cache);
    try {
      await new Promise((r) => setTimeout(r, 1000));
      expect(run.stdout()).toBe('');
      run.child.kill('SIGINT');
      expect(await run.exit).toBe(0);
      expect(run.stdout()).toBe('');
      expect(run.stderr()).toContain('note: stopped before the mock was ready');
      expect(run.stderr()).not.toMatch(/Error|at /);
      const kept = join(cache, 'news', 'mock');
      expect(existsSync(kept) ? readdirSync(kept) : []).toEqual([]);
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      rmSync(cache, { recursive: true, force: true });
    }
  }, 60_000);
});
