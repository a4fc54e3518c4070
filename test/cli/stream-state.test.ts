/**
 * `news stream --state FILE` (unattended runs, for streams): a run resumes where the
 * last one stopped, so articles indexed between two runs are written once,
 * by the next run, and nothing already written comes again.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';
import { call, startTestServer } from '../mock/server-helpers.js';

const KEY = 'api_live_mock_pro';
let server: MockServer;
beforeAll(async () => {
  // Replays reach back 60 mock minutes: 36 s here, ample for two runs.
  server = await startTestServer({ timeScale: 0.01 });
});
afterAll(() => server.close());

async function post(titles: string[]): Promise<number[]> {
  const r = await call(server, 'POST', '/__mock/articles', {
    body: titles.map((title) => ({ title })),
  });
  expect(r.status).toBe(201);
  return (r.json as { ids: number[] }).ids;
}

function stream(args: string[]) {
  return runCli(['stream', '--base-url', server.url, '--api-key', KEY, '--retries', '0', ...args]);
}

async function untilOpen(before: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (server.streams.openedFor(KEY) <= before) {
    if (Date.now() > deadline) throw new Error('the stream did not open');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const ids = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);

describe('news stream --state', () => {
  it('the next run writes what was indexed in between, once, and nothing the last run wrote', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'news-stream-state-')), 'stream.state.json');
    const before = server.streams.openedFor(KEY);
    const first = stream(['--title', 'stately', '--state', state, '--max-events', '3']);
    await untilOpen(before);
    const firstIds = await post(['stately one', 'other', 'stately two', 'stately three']);
    const r1 = await first;
    expect(r1.code, r1.stderr).toBe(0);
    const written1 = ids(r1.stdout);
    expect(written1).toEqual([firstIds[0], firstIds[2], firstIds[3]]);
    const saved = JSON.parse(readFileSync(state, 'utf8')) as {
      watermark: { value: number };
      runs: number;
      records: number;
    };
    expect(saved.watermark.value).toBe(firstIds[3]);
    expect(saved.runs).toBe(1);
    expect(saved.records).toBe(3);

    // Indexed while no run is going: the next run replays exactly these.
    const between = await post(['stately four', 'stately five']);
    const r2 = await stream(['--title', 'stately', '--state', state, '--max-events', '2']);
    expect(r2.code, r2.stderr).toBe(0);
    expect(ids(r2.stdout)).toEqual(between);
    const saved2 = JSON.parse(readFileSync(state, 'utf8')) as { runs: number; records: number };
    expect(saved2.runs).toBe(2);
    expect(saved2.records).toBe(5);
    expect(existsSync(`${state}.lock`)).toBe(false);
  }, 30_000);

  it('a state made with no filters says "no filters" in the mismatch hint, not {}', async () => {
    const state = join(scratchDir('news-stream-state-'), 'st.json');
    const first = await runCli(['stream', '--mock', '--max-events', '1', '--state', state]);
    expect(first.code, first.stderr).toBe(0);
    const other = await runCli([
      'stream',
      '--mock',
      '--max-events',
      '1',
      '--state',
      state,
      '--language-code',
      'en',
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^hint: no filters on \/v1\/news\/stream; use --state-reset/m);
  });

  it('other filters against the state exit 2 unless --state-reset', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'news-stream-state-')), 's.json');
    writeFileSync(
      state,
      JSON.stringify({
        version: 1,
        fingerprint: 'sha256:another-query',
        query: { path: '/v1/news/stream', params: { title: 'x' } },
        watermark: { by: 'id', value: 1 },
        runs: 1,
        records: 1,
        updated_at: '2026-11-20T00:00:00.000Z',
      }),
    );
    const r = await stream(['--title', 'stately', '--state', state, '--max-events', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: the query differs from the one .* was made for/m);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('a server that numbers again from below the watermark (a restarted mock): nothing is written twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-stream-state-'));
    const out = join(dir, 'd.jsonl');
    const args = ['--state', join(dir, 's.json'), '-o', out, '--max-events', '3'];
    // Two mocks in turn on the same fixtures: each publishes from the same first id.
    for (let run = 0; run < 2; run++) {
      const restarted = await startTestServer({ publishRate: 6000 });
      try {
        const r = await runCli(['stream', '--base-url', restarted.url, '--api-key', KEY, ...args]);
        expect(r.code, r.stderr).toBe(0);
      } finally {
        await restarted.close();
      }
    }
    const written = ids(readFileSync(out, 'utf8'));
    expect(written).toHaveLength(6);
    expect(written).toEqual([...new Set(written)].sort((a, b) => a - b));
  }, 30_000);

  it('the documented --mock example run twice appends new articles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-stream-state-'));
    const out = join(dir, 'd.jsonl');
    const args = ['stream', '--mock', '--publish-rate', '3000', '--state', join(dir, 'd.json')];
    for (let run = 0; run < 2; run++) {
      const r = await runCli([...args, '-o', out, '--max-events', '3']);
      expect(r.code, r.stderr).toBe(0);
    }
    const written = ids(readFileSync(out, 'utf8'));
    // The second mock goes on after the saved id: the next ids, none skipped or repeated.
    expect(written).toEqual(written.map((_, i) => written[0]! + i));
  }, 30_000);

  it('--state with --last-event-id is refused before connecting', async () => {
    const r = await stream(['--state', 'x.json', '--last-event-id', '5', '--max-events', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--state and --last-event-id do not go together/);
  });
});
