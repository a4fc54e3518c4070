/**
 * Checkpointed --all exports: a failure leaves no file at the destination and
 * a checkpoint; --resume ends byte-identical to an uninterrupted export.
 * --max-points refuses or stops cleanly (exit 4), keeping the checkpoint.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/mock/server.js';
import { runCli } from '../../helpers/cli.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let mock: MockServer;
let flaky: MockServer;
let dir: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, quiet: true, now: NOW });
  // Half the requests fail: with --retries 0 an export dies within a few pages.
  flaky = await startMockServer({ port: 0, quiet: true, now: NOW, failRate: 0.5 });
  dir = mkdtempSync(join(tmpdir(), 'news-resume-'));
});
afterAll(async () => {
  await mock.close();
  await flaky.close();
});

const KEY = ['--api-key', 'api_live_mock_pro'];
const QUERY = ['--published-at-start', '2026-11-15T00:00:00Z', '--per-page', '25', '--all'];

const search = (server: MockServer, ...extra: string[]) =>
  runCli(['search', '--base-url', server.url, ...KEY, ...QUERY, ...extra], { now: NOW });

/** Runs the export on the flaky mock until a run fails with pages checkpointed. */
async function failAfterSomePages(out: string) {
  let failed = await search(flaky, '-o', out, '--retries', '0');
  for (let i = 0; i < 10 && !existsSync(`${out}.checkpoint.json`); i++) {
    // Failed before its first page: nothing kept, and no checkpoint spoken of.
    expect(failed.code).toBe(1);
    expect(failed.stderr).not.toMatch(/checkpoint/);
    failed = await search(flaky, '-o', out, '--retries', '0');
  }
  expect(failed.code).toBe(1);
  expect(existsSync(`${out}.checkpoint.json`)).toBe(true);
  return failed;
}

describe('--resume', () => {
  for (const format of ['csv', 'json', 'parquet']) {
    it(`a failed ${format} export leaves no file; --resume ends identical`, async () => {
      const full = join(dir, `full.${format}`);
      expect((await search(mock, '-o', full)).code).toBe(0);

      const out = join(dir, `part.${format}`);
      const failed = await failAfterSomePages(out);
      expect(failed.stderr).toContain(
        `are checkpointed in ${out}.partial.jsonl and ${out}.checkpoint.json: the same command with --resume continues`,
      );
      expect(existsSync(out)).toBe(false);
      const checkpoint = JSON.parse(readFileSync(`${out}.checkpoint.json`, 'utf8')) as {
        next_page: number;
      };
      expect(checkpoint.next_page).toBeGreaterThanOrEqual(1);

      const resumed = await search(mock, '-o', out, '--resume');
      expect(resumed.code, resumed.stderr).toBe(0);
      if (checkpoint.next_page > 1) expect(resumed.stderr).toMatch(/resuming .* at page/);
      // Byte-identical (parquet carries no timestamp of its own, so it is too).
      expect(readFileSync(out).equals(readFileSync(full))).toBe(true);
      expect(
        readdirSync(dir).filter((f) => f.includes('checkpoint') || f.includes('partial')),
      ).toEqual([]);
    });
  }

  it('a checkpoint for another query is refused (exit 2)', async () => {
    const out = join(dir, 'other.csv');
    await failAfterSomePages(out);
    const r = await runCli(
      [
        'search',
        '--base-url',
        mock.url,
        ...KEY,
        ...QUERY,
        '--language-code',
        'de',
        '-o',
        out,
        '--resume',
      ],
      { now: NOW },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/checkpoint .* another export/);
  });

  it('a run without --resume that fails before its first page keeps the earlier checkpoint', async () => {
    const out = join(dir, 'kept.jsonl');
    await failAfterSomePages(out);
    const before = readFileSync(`${out}.checkpoint.json`, 'utf8');
    const down = await runCli(
      ['search', '--base-url', 'http://127.0.0.1:1', ...KEY, ...QUERY, '-o', out, '--retries', '0'],
      { now: NOW },
    );
    expect(down.code).toBe(5);
    expect(down.stderr).not.toMatch(/discarding/);
    expect(down.stderr).toMatch(
      /hint: check the network.*; the checkpoint of the earlier interrupted export is kept in .*kept\.jsonl\.partial\.jsonl and .*kept\.jsonl\.checkpoint\.json: the same command with --resume continues it/,
    );
    expect(readFileSync(`${out}.checkpoint.json`, 'utf8')).toBe(before);
    const full = join(dir, 'kept-full.jsonl');
    expect((await search(mock, '-o', full)).code).toBe(0);
    const resumed = await search(mock, '-o', out, '--resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(out).equals(readFileSync(full))).toBe(true);
  });

  it('Ctrl-C: "interrupted" says what is checkpointed', async () => {
    const slow = await startMockServer({ port: 0, quiet: true, now: NOW, latencyMs: 50 });
    try {
      const out = join(dir, 'ctrl-c.jsonl');
      const controller = new AbortController();
      const running = runCli(
        ['search', '--base-url', slow.url, ...KEY, ...QUERY, '--concurrency', '1', '-o', out],
        { now: NOW, signal: controller.signal },
      );
      // Interrupted once a page is checkpointed.
      const pages = (): number => {
        try {
          return (JSON.parse(readFileSync(`${out}.checkpoint.json`, 'utf8')) as { pages: number })
            .pages;
        } catch {
          return 0;
        }
      };
      for (let i = 0; i < 200 && pages() === 0; i++) await new Promise((r) => setTimeout(r, 20));
      controller.abort();
      const r = await running;
      expect(r.code).toBe(130);
      expect(r.stderr).toMatch(
        /error: interrupted\nhint: [\d,]+ records from [\d,]+ pages? are checkpointed in .*ctrl-c\.jsonl\.partial\.jsonl and .*ctrl-c\.jsonl\.checkpoint\.json: the same command with --resume continues/,
      );
      expect(existsSync(out)).toBe(false);
    } finally {
      await slow.close();
    }
  });

  it('--resume needs --all and -o', async () => {
    const r = await runCli(['search', '--base-url', mock.url, ...KEY, '--resume'], { now: NOW });
    expect(r.code).toBe(2);
  });
});

describe('--max-points', () => {
  it('refuses to start when the estimate from count is over (exit 4, nothing exported)', async () => {
    const out = join(dir, 'refused.csv');
    const r = await search(mock, '-o', out, '--max-points', '3');
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /^error: the export would take about \d+ points .*more than --max-points 3/m,
    );
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.checkpoint.json`)).toBe(false);
  });

  it('stops cleanly before going over, keeps the checkpoint; --resume finishes identical', async () => {
    // headlines has no count: only the running total can stop it.
    const args = (...extra: string[]) =>
      runCli(['headlines', '--base-url', mock.url, ...KEY, '--per-page', '50', '--all', ...extra], {
        now: NOW,
      });
    const full = join(dir, 'headlines-full.jsonl');
    const whole = await args('-o', full);
    expect(whole.code).toBe(0);
    const lines = readFileSync(full, 'utf8').split('\n').filter(Boolean).length;
    expect(lines).toBeGreaterThan(100);

    const out = join(dir, 'headlines.jsonl');
    const stopped = await args('-o', out, '--max-points', '2');
    expect(stopped.code).toBe(4);
    expect(stopped.stderr).toMatch(/stopped before spending more than --max-points 2/);
    expect(existsSync(out)).toBe(false);
    const checkpoint = JSON.parse(readFileSync(`${out}.checkpoint.json`, 'utf8')) as {
      pages: number;
      records: number;
    };
    expect(checkpoint.pages).toBe(2);
    expect(checkpoint.records).toBe(100);

    const resumed = await args('-o', out, '--resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(out).equals(readFileSync(full))).toBe(true);
  });
});
