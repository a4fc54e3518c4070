/**
 * Pages in parallel from the command line: --concurrency, the same export at
 * any concurrency, faults (429, 500), a mock that keeps publishing, a
 * resumed interruption, the directories and `article`, -v and --log-file,
 * and the progress line on every path that pages.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from '../../bench/fault-proxy.mjs';
import type { CliIO } from '../../src/cli/runtime/io.js';
import { run } from '../../src/cli/main.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { isolatedConfigHome, runCli } from '../helpers/cli.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const QUERY = ['--published-at-start', '2026-11-12T00:00:00Z', '--per-page', '20', '--all'];
let mock: MockServer;
let slow: MockServer;
let dir: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, quiet: true, now: NOW });
  slow = await startMockServer({ port: 0, quiet: true, now: NOW, latencyMs: 25 });
  dir = mkdtempSync(join(tmpdir(), 'news-paging-'));
});
afterAll(async () => {
  await mock.close();
  await slow.close();
});

const api = (server: MockServer | { url: string }, key = 'api_live_mock_pro') => [
  '--base-url',
  server.url,
  '--api-key',
  key,
];

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

function ids(text: string): number[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: number }).id);
}

describe('--concurrency', () => {
  for (const bad of ['0', '17', '1.5', 'many', '']) {
    it(`"${bad}" is a usage error naming the flag (exit 2), nothing sent`, async () => {
      const r = await runCli(['search', ...api(mock), '--concurrency', bad, '--all']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^error: --concurrency must be a whole number from 1 to 16, or auto \(got ".*"\)\n/,
      );
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    });
  }

  it('comes from the profile like --retries (checked by the same rule), and the flag wins', async () => {
    const home = isolatedConfigHome();
    const file = join(home, 'news', 'config.json');
    mkdirSync(join(home, 'news'), { recursive: true });
    writeFileSync(file, JSON.stringify({ profiles: { default: { concurrency: 40 } } }));
    const refused = await runCli(['search', ...api(mock), '--limit', '5', '-f', 'jsonl'], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /key "concurrency" must be a whole number from 1 to 16, or auto/,
    );

    writeFileSync(file, JSON.stringify({ profiles: { default: { concurrency: 2 } } }));
    const runWith = async (name: string, ...extra: string[]) => {
      const log = join(dir, `${name}.log`);
      const r = await runCli(
        [
          'search',
          ...api(slow),
          ...QUERY,
          '-o',
          join(dir, `${name}.jsonl`),
          '--log-file',
          log,
          ...extra,
        ],
        { env: { XDG_CONFIG_HOME: home }, now: NOW },
      );
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(readFileSync(log, 'utf8')) as { concurrency: number };
    };
    expect((await runWith('profile')).concurrency).toBe(2);
    expect((await runWith('flag', '--concurrency', '1')).concurrency).toBe(1);
  });
});

describe('an export in parallel', () => {
  it('writes the same records in the same order as one page at a time; -v and --log-file say how', async () => {
    const one = join(dir, 'one.jsonl');
    const many = join(dir, 'many.jsonl');
    const log = join(dir, 'runs.log');
    const a = await runCli(
      ['search', ...api(slow), ...QUERY, '-o', one, '--concurrency', '1', '--log-file', log],
      { now: NOW },
    );
    expect(a.code, a.stderr).toBe(0);
    const b = await runCli(
      ['search', ...api(slow), ...QUERY, '-o', many, '-v', '--log-file', log],
      {
        now: NOW,
      },
    );
    expect(b.code, b.stderr).toBe(0);
    expect(lines(many).length).toBeGreaterThan(100);
    expect(readFileSync(many).equals(readFileSync(one))).toBe(true);
    expect(b.stderr).toMatch(/debug: paging: window pinned at published_at\.end 2026-11-20T/);
    expect(b.stderr).toMatch(/debug: paging: 4 pages at once \(adaptive, up to 8\), \d+ records/);
    const [first, second] = lines(log).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first).toMatchObject({ concurrency: 1, backoffs: 0 });
    expect(second!['concurrency']).toBeGreaterThanOrEqual(4);
    expect(second!['records']).toBe(first!['records']);
  });

  it('through injected 429s and 500s: the fault-free records, with the back-off reported', async () => {
    const baseline = join(dir, 'baseline.jsonl');
    expect(
      (await runCli(['search', ...api(mock), ...QUERY, '-o', baseline], { now: NOW })).code,
    ).toBe(0);
    const proxy = await startFaultProxy({
      target: slow.url,
      rate: 0.25,
      seed: 5,
      kinds: ['429', '500'],
      retryAfter: 0,
    });
    try {
      const out = join(dir, 'faulty.jsonl');
      const log = join(dir, 'faulty.log');
      const r = await runCli(
        ['search', ...api(proxy), ...QUERY, '-o', out, '--retries', '10', '-v', '--log-file', log],
        { now: NOW },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(proxy.faults['429']).toBeGreaterThan(0);
      expect(proxy.faults['500']).toBeGreaterThan(0);
      expect(readFileSync(out).equals(readFileSync(baseline))).toBe(true);
      const line = JSON.parse(readFileSync(log, 'utf8')) as Record<string, number>;
      expect(line['concurrency']).toBeGreaterThan(1);
      expect(line['backoffs']).toBeGreaterThan(0);
      expect(r.stderr).toMatch(/debug: paging: HTTP 429: backing off to \d pages? at once/);
    } finally {
      await proxy.close();
    }
  });

  it('while the mock publishes 100 articles a second: nothing lost, nothing twice, nothing newer than the pin', async () => {
    const busy = await startMockServer({
      port: 0,
      quiet: true,
      now: NOW,
      publishRate: 6000,
      latencyMs: 10,
    });
    try {
      const quiet = await runCli(['search', ...api(mock), ...QUERY, '-f', 'jsonl'], { now: NOW });
      const r = await runCli(['search', ...api(busy), ...QUERY, '-f', 'jsonl', '-v'], { now: NOW });
      expect(r.code, r.stderr).toBe(0);
      const pin = /window pinned at published_at\.end (\S+)/.exec(r.stderr)?.[1];
      expect(pin).toBeDefined();
      const written = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: number; published_at: string });
      const seen = new Map<number, number>();
      for (const a of written) seen.set(a.id, (seen.get(a.id) ?? 0) + 1);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
      const fixture = ids(quiet.stdout);
      expect(fixture.filter((id) => !seen.has(id))).toEqual([]);
      // The rest was published before the run began: at or before the pin.
      for (const a of written)
        expect(Date.parse(a.published_at)).toBeLessThanOrEqual(Date.parse(pin!));
      // And the mock went on publishing past it, unwritten.
      const later = await runCli(['search', ...api(busy), '--limit', '1', '-f', 'jsonl'], {
        now: NOW,
      });
      const newest = JSON.parse(later.stdout) as { id: number; published_at: string };
      expect(Date.parse(newest.published_at)).toBeGreaterThan(Date.parse(pin!));
      expect(seen.has(newest.id)).toBe(false);
    } finally {
      await busy.close();
    }
  });

  it('interrupted in the middle of a window, --resume continues in the same window, identical', async () => {
    const full = join(dir, 'full-window.csv');
    expect((await runCli(['search', ...api(slow), ...QUERY, '-o', full], { now: NOW })).code).toBe(
      0,
    );
    const out = join(dir, 'cut-window.csv');
    const controller = new AbortController();
    const cut = runCli(['search', ...api(slow), ...QUERY, '-o', out], {
      now: NOW,
      signal: controller.signal,
    });
    let ended = false;
    void cut.then(() => {
      ended = true;
    });
    // Past the three pages before the window, while pages are in flight.
    for (let spooled = 0; spooled < 5 && !ended; await new Promise((r) => setTimeout(r, 5))) {
      try {
        spooled = (JSON.parse(readFileSync(`${out}.checkpoint.json`, 'utf8')) as { pages: number })
          .pages;
      } catch {
        // Not written yet, or being replaced.
      }
    }
    controller.abort();
    const stopped = await cut;
    expect(stopped.code).toBe(130);
    expect(existsSync(out)).toBe(false);
    const checkpoint = JSON.parse(readFileSync(`${out}.checkpoint.json`, 'utf8')) as {
      pages: number;
      pinned_end?: string;
    };
    expect(checkpoint.pages).toBeGreaterThan(0);
    expect(checkpoint.pinned_end).toMatch(/^2026-11-20T/);
    const resumed = await runCli(['search', ...api(slow), ...QUERY, '-o', out, '--resume'], {
      now: NOW,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(out).equals(readFileSync(full))).toBe(true);
  });

  it('--max-points is never overspent, pages in flight, probe and counts included', async () => {
    // headlines has no count: only the running total and the request budget stop it.
    for (const max of [4, 7, 12]) {
      const log = join(dir, `budget-${max}.log`);
      const capped = await runCli(
        [
          'headlines',
          ...api(slow),
          '--per-page',
          '10',
          '--all',
          '-o',
          join(dir, `capped-${max}.jsonl`),
          '--max-points',
          String(max),
          '--log-file',
          log,
        ],
        { now: NOW },
      );
      expect(capped.code).toBe(4);
      const line = JSON.parse(readFileSync(log, 'utf8')) as { points: number };
      expect(line.points).toBeLessThanOrEqual(max);
    }
  });

  it('--max-points exactly the estimate: the export completes (the window gives way to the budget)', async () => {
    const dry = await runCli(['search', ...api(mock), ...QUERY, '--dry-run'], { now: NOW });
    const pages = Number(/(\d+) pages? of 20/.exec(dry.stdout)?.[1]);
    expect(pages).toBeGreaterThan(5);
    for (const max of [pages + 1, pages + 3]) {
      const log = join(dir, `exact-${max}.log`);
      const r = await runCli(
        [
          'search',
          ...api(slow),
          ...QUERY,
          '-o',
          join(dir, `exact-${max}.jsonl`),
          '--max-points',
          String(max),
          '--log-file',
          log,
        ],
        { now: NOW },
      );
      expect(r.code, r.stderr).toBe(0);
      const line = JSON.parse(readFileSync(log, 'utf8')) as { points: number; concurrency: number };
      expect(line.points).toBeLessThanOrEqual(max);
      // With room for the window's two counts, it opened.
      if (max === pages + 3) expect(line.concurrency).toBeGreaterThan(1);
    }
  });
});

describe('lists that do not grow', () => {
  it('article with many ids: pages in parallel, the same records as one at a time', async () => {
    const search = await runCli(['search', ...api(mock), ...QUERY, '--fields', 'id', '-f', 'csv'], {
      now: NOW,
    });
    const wanted = search.stdout.trim().split('\n').slice(1, 96);
    expect(wanted).toHaveLength(95);
    // The Free plan's per_page cap of 10 splits them into ten pages.
    const free = (c: string) =>
      runCli(
        [
          'article',
          ...api(slow, 'api_live_mock_free'),
          ...wanted,
          '-f',
          'jsonl',
          '--concurrency',
          c,
          '-v',
        ],
        {
          now: NOW,
        },
      );
    const one = await free('1');
    const many = await free('auto');
    expect(many.code, many.stderr).toBe(0);
    expect(ids(many.stdout)).toHaveLength(95);
    expect(many.stdout).toBe(one.stdout);
    expect(many.stderr).toMatch(
      /debug: paging: \d+ pages at once \(adaptive, up to 8\), 95 records/,
    );
  });

  it('directories: --all in parallel, the same records', async () => {
    const one = await runCli([
      'people',
      ...api(slow),
      '--per-page',
      '5',
      '--all',
      '-f',
      'jsonl',
      '--concurrency',
      '1',
    ]);
    const many = await runCli([
      'people',
      ...api(slow),
      '--per-page',
      '5',
      '--all',
      '-f',
      'jsonl',
      '-v',
    ]);
    expect(many.code, many.stderr).toBe(0);
    expect(ids(many.stdout).length).toBeGreaterThan(20);
    expect(many.stdout).toBe(one.stdout);
    expect(many.stderr).toMatch(/debug: paging: \d+ pages at once/);
  });
});

/** stderr a terminal, stdout a pipe: what a user sees while an export to a file runs. */
async function onTerminal(argv: string[]): Promise<{ code: number; stderr: string }> {
  const chunks: string[] = [];
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
  stderr.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  const io: CliIO = {
    stdout: Object.assign(new PassThrough(), { isTTY: false }),
    stderr,
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    env: { XDG_CONFIG_HOME: isolatedConfigHome() },
    now: () => NOW,
  };
  const code = await run(argv, io);
  return { code, stderr: chunks.join('') };
}

describe('the progress line on every path that pages', () => {
  const cases: [string, string[]][] = [
    ['checkpointed --all -o FILE', ['-o', 'progress.jsonl']],
    ['--state', ['--state', 'progress.state', '-o', 'progress-state.jsonl']],
    ['--partition-by', ['--partition-by', 'day', '-f', 'jsonl', '-o', 'progress-parts']],
    ['split windows', ['--split-window', '2d', '-o', 'progress-split.jsonl']],
  ];
  for (const [name, extra] of cases) {
    it(`${name}: drawn with the total count knows, and cleared at the end`, async () => {
      const argv = [
        'search',
        ...api(slow),
        ...QUERY,
        ...extra.map((a) => (/^progress/.test(a) ? join(dir, a) : a)),
      ];
      const r = await onTerminal(argv);
      expect(r.code, r.stderr).toBe(0);
      const draws = [...r.stderr.matchAll(/\r\x1b\[2K(\d+ pages? · [^\r\n]*)/g)];
      expect(draws.length).toBeGreaterThan(1);
      // Cleared: nothing of the line is left after the last draw but the clearing sequence (and notes).
      const tail = r.stderr.slice(draws.at(-1)!.index! + draws.at(-1)![0].length);
      expect(tail.startsWith('\r\x1b[2K')).toBe(true);
      if (name !== 'split windows' && name !== '--state') {
        expect(draws.at(-1)![1]).toMatch(/^\d+ pages · (\d[\d,]*) of \1 records · /);
      }
    });
  }
});
