/** --state: incremental runs against the mock, with late-indexed articles posted between runs. */
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/mock/server.js';
import { runCli } from '../../helpers/cli.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let mock: MockServer;
let dir: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, quiet: true, now: NOW });
});
afterAll(async () => {
  await mock.close();
});

const api = () => ['--base-url', mock.url, '--api-key', 'api_live_mock_pro'];
const FILTER = ['--published-at-start', '2026-11-19T00:00:00Z', '--per-page', '20'];

function ids(file: string): number[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);
}

async function post(articles: object[]): Promise<number[]> {
  const response = await fetch(`${mock.url}/__mock/articles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(articles),
  });
  expect(response.status).toBeLessThan(300);
  return ((await response.json()) as { ids: number[] }).ids;
}

function run(state: string, out: string, ...extra: string[]) {
  return runCli(['search', ...api(), ...FILTER, '--state', state, '-o', out, ...extra], {
    now: NOW,
  });
}

describe('--state', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'news-state-'));
  });

  it('writes each article once over runs; late-indexed articles with old dates are caught', async () => {
    const state = join(dir, 'state.json');
    const first = await run(state, join(dir, 'run1.jsonl'));
    expect(first.code, first.stderr).toBe(0);
    const run1 = ids(join(dir, 'run1.jsonl'));
    expect(run1.length).toBeGreaterThan(20);
    const saved = JSON.parse(readFileSync(state, 'utf8')) as { watermark: { value: number } };
    expect(saved.watermark.value).toBe(Math.max(...run1));

    const second = await run(state, join(dir, 'run2.jsonl'));
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/nothing new since/);
    expect(ids(join(dir, 'run2.jsonl'))).toEqual([]);

    // Late indexing: one published before the newest article written, one now.
    const posted = await post([
      { title: 'late one', published_at: '2026-11-19T06:00:00Z' },
      { title: 'fresh one', published_at: '2026-11-20T11:59:00Z' },
    ]);
    const third = await run(state, join(dir, 'run3.jsonl'));
    expect(third.code, third.stderr).toBe(0);
    const run3 = ids(join(dir, 'run3.jsonl'));
    expect([...run3].sort()).toEqual([...posted].sort());

    // The union of the runs is one full export, each article once.
    const full = await runCli(
      ['search', ...api(), ...FILTER, '--all', '-f', 'jsonl', '-o', join(dir, 'full.jsonl')],
      { now: NOW },
    );
    expect(full.code, full.stderr).toBe(0);
    const union = [...run1, ...run3];
    expect(new Set(union).size).toBe(union.length);
    expect([...union].sort()).toEqual([...ids(join(dir, 'full.jsonl'))].sort());
  });

  it("a plain -o FILE is each run's own file: replacing an earlier one says so, a template does not", async () => {
    const state = join(dir, 'plain.json');
    const out = join(dir, 'plain.jsonl');
    const first = await run(state, out);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toMatch(/previous run/);
    const second = await run(state, out);
    expect(second.code).toBe(0);
    expect(ids(out)).toEqual([]);
    expect(second.stderr).toMatch(
      /plain\.jsonl held the previous run's records and now holds this run's: .*-o '.*plain-\{time\}\.jsonl' or --partition-by day keeps every run/,
    );
    const templated = join(dir, 'each-{time}.jsonl');
    const tState = join(dir, 'templated.json');
    expect((await run(tState, templated)).code).toBe(0);
    const again = await run(tState, templated);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toMatch(/previous run/);
  });

  it('--skip-empty writes no file when nothing is new', async () => {
    const state = join(dir, 'skip.json');
    expect((await run(state, join(dir, 'skip1.jsonl'))).code).toBe(0);
    const again = await run(state, join(dir, 'skip2.jsonl'), '--skip-empty');
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/nothing new.*no file written/);
    expect(existsSync(join(dir, 'skip2.jsonl'))).toBe(false);
  });

  it('a changed query against an old state is exit 2 unless --state-reset', async () => {
    const state = join(dir, 'changed.json');
    expect((await run(state, join(dir, 'c1.jsonl'))).code).toBe(0);
    const before = readFileSync(state, 'utf8');
    const changed = await runCli(
      [
        'search',
        ...api(),
        ...FILTER,
        '--language-code',
        'fr',
        '--state',
        state,
        '-o',
        join(dir, 'c2.jsonl'),
      ],
      { now: NOW },
    );
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(
      /^error: the query differs from the one .*changed\.json was made for/m,
    );
    expect(readFileSync(state, 'utf8')).toBe(before);
    const reset = await runCli(
      [
        'search',
        ...api(),
        ...FILTER,
        '--language-code',
        'fr',
        '--state',
        state,
        '--state-reset',
        '-o',
        join(dir, 'c3.jsonl'),
      ],
      { now: NOW },
    );
    expect(reset.code, reset.stderr).toBe(0);
    expect(ids(join(dir, 'c3.jsonl')).length).toBeGreaterThan(0);
  });

  it('a lock held by a live run is exit 1 naming the holder; a dead one is taken over', async () => {
    const state = join(dir, 'locked.json');
    writeFileSync(
      `${state}.lock`,
      JSON.stringify({
        pid: process.pid,
        host: (await import('node:os')).hostname(),
        since: '2026-11-20T11:45:00.000Z',
      }),
    );
    const held = await run(state, join(dir, 'l1.jsonl'));
    expect(held.code).toBe(1);
    expect(held.stderr).toMatch(
      /^error: another run holds .*locked\.json since 2026-11-20T11:45:00\.000Z/m,
    );
    expect(existsSync(state)).toBe(false);
    expect(existsSync(join(dir, 'l1.jsonl'))).toBe(false);

    // pid 2^22 + 1 is above Linux's pid_max: no such process.
    writeFileSync(
      `${state}.lock`,
      JSON.stringify({ pid: 4_194_305, host: (await import('node:os')).hostname(), since: 'x' }),
    );
    const stale = await run(state, join(dir, 'l2.jsonl'));
    expect(stale.code, stale.stderr).toBe(0);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('refuses what cannot combine with --state before sending', async () => {
    const state = join(dir, 'bad.json');
    const r = await run(state, join(dir, 'bad.jsonl'), '--sort-by', 'published_at');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/indexing order/);
    const l = await run(state, join(dir, 'bad.jsonl'), '--limit', '5');
    expect(l.code).toBe(2);
  });
});

describe('--state over a title search longer than 31 days (split into windows)', () => {
  it('catches new articles in every window, not only the newest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-state-windows-'));
    const state = join(dir, 'state.json');
    const args = (out: string) => [
      'search',
      ...api(),
      '--title',
      'quxzebra',
      '--published-at-start',
      '2026-09-20',
      '--published-at-end',
      '2026-11-19',
      '--state',
      state,
      '-o',
      join(dir, out),
    ];
    const first = await post([
      { title: 'quxzebra old', published_at: '2026-10-01T10:00:00Z' },
      { title: 'quxzebra new', published_at: '2026-11-15T10:00:00Z' },
    ]);
    const r1 = await runCli(args('r1.jsonl'), { now: NOW });
    expect(r1.code, r1.stderr).toBe(0);
    expect(ids(join(dir, 'r1.jsonl')).sort()).toEqual([...first].sort());
    // Indexed later, one in each 31-day window.
    const later = await post([
      { title: 'quxzebra old 2', published_at: '2026-10-02T10:00:00Z' },
      { title: 'quxzebra new 2', published_at: '2026-11-16T10:00:00Z' },
    ]);
    const r2 = await runCli(args('r2.jsonl'), { now: NOW });
    expect(r2.code, r2.stderr).toBe(0);
    expect(ids(join(dir, 'r2.jsonl')).sort()).toEqual([...later].sort());
  });
});

describe('cron flags without --all', () => {
  it('--log-file and -o templates keep a search to one page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-one-page-'));
    const base = ['search', ...api(), ...FILTER.slice(0, 2), '--per-page', '3', '-f', 'jsonl'];
    const logged = await runCli([...base, '--fields', 'id', '--log-file', join(dir, 'l.log')], {
      now: NOW,
    });
    expect(logged.code, logged.stderr).toBe(0);
    expect(logged.stdout.trim().split('\n')).toHaveLength(3);
    const templated = await runCli([...base, '-o', join(dir, 'tpl-{date}.jsonl')], { now: NOW });
    expect(templated.code, templated.stderr).toBe(0);
    expect(ids(join(dir, 'tpl-2026-11-20.jsonl'))).toHaveLength(3);
    const budget = await runCli([...base, '--fields', 'id', '--max-points', '1'], { now: NOW });
    expect(budget.code, budget.stderr).toBe(0);
    expect(budget.stdout.trim().split('\n')).toHaveLength(3);
  });
});
