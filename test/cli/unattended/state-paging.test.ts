/**
 * --state with pages in parallel, against the mock while it indexes: a busy
 * list (the list shifts down by pages between requests), an article indexed
 * late into the pinned window after an ordinary new one, and a server whose
 * paging stops short of the list's end. The contract: the next run writes
 * only articles not written before, and nothing is lost or written twice.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/mock/server.js';
import { HostileServer, pageOf } from '../../fuzz/hostile-server.js';
import { runCli } from '../../helpers/cli.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'news-state-paging-'));
});

const api = (url: string) => ['--base-url', url, '--api-key', 'api_live_mock_pro'];

function ids(file: string): number[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);
}

interface SavedState {
  watermark: { value: number } | null;
  runs: number;
  records: number;
}

function stateOf(file: string): SavedState {
  return JSON.parse(readFileSync(file, 'utf8')) as SavedState;
}

function watermarkOf(file: string): number {
  const mark = stateOf(file).watermark;
  expect(mark).not.toBeNull();
  return mark!.value;
}

/** The mock's own list: the ids of every live article published at or after `start`. */
function indexed(mock: MockServer, start: string): number[] {
  const t = mock.store.table;
  const from = Date.parse(start);
  const out: number[] = [];
  for (const row of t.order) {
    if ((t.published.data[row] as number) >= from) out.push(t.id.data[row] as number);
  }
  return out;
}

/**
 * What a run left behind, against the mock's own list: articles at or below
 * the watermark that no run wrote (lost for good), and articles written twice.
 */
function audit(mock: MockServer, start: string, state: string, outputs: string[]) {
  const watermark = watermarkOf(state);
  const written = outputs.flatMap(ids);
  const once = new Set(written);
  return {
    watermark,
    written: written.length,
    twice: written.length - once.size,
    lost: indexed(mock, start).filter((id) => id <= watermark && !once.has(id)),
  };
}

describe('--state on a busy list (100 new articles a second)', () => {
  let busy: MockServer;
  beforeAll(async () => {
    busy = await startMockServer({
      port: 0,
      quiet: true,
      now: NOW,
      publishRate: 6000,
      latencyMs: 150,
    });
  });
  afterAll(async () => {
    await busy.close();
  });

  it('pages that repeat what earlier ones brought do not end the run; two runs lose nothing and repeat nothing', async () => {
    const start = '2026-11-19T12:00:00Z';
    const state = join(dir, 'busy.state.json');
    const query = ['search', ...api(busy.url), '--published-at-start', start, '--per-page', '10'];
    const out1 = join(dir, 'busy-1.jsonl');
    const first = await runCli([...query, '--state', state, '-o', out1, '-v'], { now: NOW });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toMatch(/stopped paging/);
    // Pages repeated what earlier ones brought, or showed articles indexed after page one.
    expect(first.stderr).toMatch(/debug: paging: page \d+ \(10 records\): skipped /);
    const after1 = audit(busy, start, state, [out1]);
    expect(after1.written).toBeGreaterThan(100);
    expect(after1.lost).toEqual([]);
    expect(after1.twice).toBe(0);
    // The watermark is page one's first id: nothing indexed after it was written.
    const newest = Number(/in indexing order from id (\d+) down/.exec(first.stderr)?.[1]);
    expect(after1.watermark).toBe(newest);

    const out2 = join(dir, 'busy-2.jsonl');
    const second = await runCli([...query, '--state', state, '-o', out2], { now: NOW });
    expect(second.code, second.stderr).toBe(0);
    const after2 = audit(busy, start, state, [out1, out2]);
    expect(Math.min(...ids(out2))).toBeGreaterThan(after1.watermark);
    expect(after2.lost).toEqual([]);
    expect(after2.twice).toBe(0);
  });
});

/** A proxy that runs `hook` on each request before forwarding it (the hook may change the mock). */
async function hookProxy(
  target: string,
  hook: (path: string, body: Record<string, unknown>) => Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        // Not JSON: the hook sees an empty body.
      }
      void hook(req.url ?? '', json).then(() => {
        const up = request(
          new URL(req.url ?? '/', target),
          { method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        up.on('error', () => res.destroy());
        up.end(body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('--state while an article is indexed late into the pinned window', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, quiet: true, now: NOW, latencyMs: 5 });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('the second pass does not move the watermark past an ordinary article never written', async () => {
    const start = '2026-11-01T00:00:00Z';
    let posted: number[] = [];
    const proxy = await hookProxy(mock.url, async (path, body) => {
      // While the window's pages are read: A, an ordinary new article
      // (published now, after the window's end), then L, indexed after it
      // with an old date (inside the window: the count moves).
      if (path.startsWith('/v1/news/everything') && body['page'] === 6 && posted.length === 0) {
        const a = await mock.indexArticles([{ title: 'A normal new article' }]);
        const l = await mock.indexArticles([
          { title: 'Indexed late', published_at: '2026-11-10T00:00:00Z' },
        ]);
        posted = [...a, ...l].map((x) => x.id);
      }
    });
    try {
      const state = join(dir, 'late.state.json');
      const query = ['search', '--published-at-start', start, '--per-page', '20'];
      const out1 = join(dir, 'late-1.jsonl');
      const first = await runCli([...query, ...api(proxy.url), '--state', state, '-o', out1], {
        now: NOW,
      });
      expect(first.code, first.stderr).toBe(0);
      expect(posted).toHaveLength(2);
      expect(first.stderr).toMatch(/the search changed while paging \(\d+ articles, now \d+\)/);
      // Both were indexed after the run began: neither is in it, the watermark is below both.
      expect(ids(out1).filter((id) => posted.includes(id))).toEqual([]);
      expect(watermarkOf(state)).toBeLessThan(Math.min(...posted));

      const out2 = join(dir, 'late-2.jsonl');
      const second = await runCli([...query, ...api(mock.url), '--state', state, '-o', out2], {
        now: NOW,
      });
      expect(second.code, second.stderr).toBe(0);
      expect([...ids(out2)].sort()).toEqual([...posted].sort());
      const after = audit(mock, start, state, [out1, out2]);
      expect(after.lost).toEqual([]);
      expect(after.twice).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});

describe('--state over windows (a title search longer than 31 days)', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, quiet: true, now: NOW });
  });
  afterAll(async () => {
    await mock.close();
  });

  const OLDER = '2026-10-01T10:00:00Z';
  const NEWER = '2026-11-15T10:00:00Z';
  /**
   * Two --state runs of a title search over two windows; `during` runs when
   * the first run asks for the older window's first page (the run's position
   * was read before, one article per window).
   */
  async function twoRuns(
    word: string,
    during: () => Promise<number[]>,
    seen: (body: Record<string, unknown>) => void = () => {},
  ) {
    let posted: number[] | undefined;
    const proxy = await hookProxy(mock.url, async (path, body) => {
      if (path.startsWith('/v1/news/everything')) seen(body);
      const older = String(body['published_at.start']).startsWith('2026-09-20');
      const page = body['per_page'] !== 1;
      if (path.startsWith('/v1/news/everything') && older && page && posted === undefined) {
        posted = await during();
      }
    });
    const state = join(dir, `${word}.state.json`);
    const args = (url: string, out: string) => [
      'search',
      ...api(url),
      '--title',
      word,
      '--published-at-start',
      '2026-09-20',
      '--published-at-end',
      '2026-11-19',
      '--state',
      state,
      '-o',
      join(dir, out),
    ];
    try {
      const r1 = await runCli(args(proxy.url, `${word}-1.jsonl`), { now: NOW });
      expect(r1.code, r1.stderr).toBe(0);
    } finally {
      await proxy.close();
    }
    const r2 = await runCli(args(mock.url, `${word}-2.jsonl`), { now: NOW });
    expect(r2.code, r2.stderr).toBe(0);
    return {
      first: ids(join(dir, `${word}-1.jsonl`)),
      second: ids(join(dir, `${word}-2.jsonl`)),
      posted: posted ?? [],
    };
  }
  const index = async (articles: object[]) => (await mock.indexArticles(articles)).map((a) => a.id);

  it('the older window writes nothing indexed after the newer one was read', async () => {
    const before = await index([
      { title: 'zorblax old', published_at: OLDER },
      { title: 'zorblax new', published_at: NEWER },
    ]);
    // While the older window is read: X into the newer window (read already),
    // then Y into the older one. Written now, Y would lift the watermark over X.
    const runs = await twoRuns('zorblax', () =>
      index([
        { title: 'zorblax x', published_at: '2026-11-18T10:00:00Z' },
        { title: 'zorblax y', published_at: '2026-10-02T10:00:00Z' },
      ]),
    );
    expect(runs.posted).toHaveLength(2);
    expect(runs.first.sort()).toEqual([...before].sort());
    expect(runs.second.sort()).toEqual([...runs.posted].sort());
  });

  it('an older window’s article indexed after the newer window’s newest is written in the same run', async () => {
    // The older one indexed last: a position read from the newer window alone
    // would leave it above the watermark run after run.
    const before = await index([
      { title: 'quimbly new', published_at: NEWER },
      { title: 'quimbly old', published_at: OLDER },
    ]);
    const runs = await twoRuns('quimbly', async () => []);
    expect(runs.first.sort()).toEqual([...before].sort());
    expect(runs.second).toEqual([]);
  });

  it('windows all empty when the run began: one article asked for per window, nothing written', async () => {
    const asked: Record<string, unknown>[] = [];
    const runs = await twoRuns(
      'vexdrum',
      async () => [],
      (body) => asked.push(body),
    );
    expect(runs.first).toEqual([]);
    // The first run's position, one article per window, and no page: there was nothing.
    expect(asked.map((b) => b['per_page'])).toEqual([1, 1]);
    expect(asked.map((b) => b['sort.by'])).toEqual(['id', 'id']);
  });
});

describe('--state when the server’s paging stops short of the list’s end', () => {
  const server = new HostileServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());

  /** Ten articles a page, newest id first, below `top`; `echo` is the page number the server claims. */
  const page = (top: number, n: number, echo: number, more: boolean) => ({
    body: {
      status: 'ok',
      page: echo,
      has_next_pages: more,
      results: Array.from({ length: 10 }, (_, i) => ({ id: top - (n - 1) * 10 - i, title: 't' })),
    },
  });
  const run = (state: string, out: string) =>
    runCli([
      'search',
      '--title',
      'rates',
      ...api(server.url),
      '--retries',
      '0',
      '--state',
      state,
      '-o',
      out,
    ]);

  it('fails with one error line, leaves the watermark where it was, publishes no file; the next run writes what it missed', async () => {
    const state = join(dir, 'cut.state.json');
    // A first run reads three whole pages.
    server.answer((req) => page(30, pageOf(req), pageOf(req), pageOf(req) < 3));
    const ok = await run(state, join(dir, 'cut-1.jsonl'));
    expect(ok.code, ok.stderr).toBe(0);
    expect(stateOf(state)).toMatchObject({ watermark: { value: 30 }, runs: 1, records: 30 });

    // Twenty new articles; the server answers page 1 whatever is asked.
    server.answer(() => page(50, 1, 1, true));
    const out = join(dir, 'cut-2.jsonl');
    const cut = await run(state, out);
    expect(cut.code).toBe(1);
    const lines = cut.stderr.split('\n').filter(Boolean);
    expect(lines.filter((l) => l.startsWith('error:'))).toEqual([
      "error: the service's pages stopped before the end of the list (page 2: the server answered page 1 again); the state is unchanged",
    ]);
    expect(cut.stderr).not.toMatch(/^warning:/m);
    expect(stateOf(state)).toMatchObject({ watermark: { value: 30 }, runs: 1, records: 30 });
    expect(existsSync(out)).toBe(false);

    // The server pages again: the next run writes the twenty, each once.
    server.answer((req) => page(50, pageOf(req), pageOf(req), pageOf(req) < 5));
    const next = join(dir, 'cut-3.jsonl');
    const again = await run(state, next);
    expect(again.code, again.stderr).toBe(0);
    expect(ids(next)).toEqual(Array.from({ length: 20 }, (_, i) => 50 - i));
    expect(stateOf(state)).toMatchObject({ watermark: { value: 50 }, runs: 2, records: 50 });
  });

  it('a first run cut short sets no watermark and publishes no file', async () => {
    const state = join(dir, 'cut-first.state.json');
    server.answer((req) => page(30, pageOf(req), 1, true));
    const out = join(dir, 'cut-first.jsonl');
    const cut = await run(state, out);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/^error: the service's pages stopped before the end of the list/m);
    expect(existsSync(state) ? stateOf(state).watermark : null).toBeNull();
    expect(existsSync(out)).toBe(false);
  });
});
