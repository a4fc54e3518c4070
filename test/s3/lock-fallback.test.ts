/**
 * A store that ignores conditional writes (s3rver as it is, older MinIO, some
 * gateways: 200 to `PUT If-None-Match: *` on an existing key). The lock finds
 * out with one probe, says so once, and falls back to a token read back
 * after SETTLE_MS (src/output/destinations/s3/token-lock.ts): two runs on one `--state`
 * still never both write, and the loser exits 1 naming the other.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { acquireStoreLock } from '../../src/output/destinations/s3/lock.js';
import { LockHeldError } from '../../src/cli/run-state/state-lock.js';
import { honoursConditionalWrites } from '../../src/output/destinations/s3/objects.js';
import { runCli } from '../helpers/cli.js';
import { BIN, spawnCollecting } from '../helpers/spawn.js';
import { useMockAndStore } from './store.js';

const NOW = new Date('2026-11-20T12:00:00Z');
// Slow pages: the first run is still going when the second starts.
const s3 = useMockAndStore({ now: NOW, latencyMs: 40 }, { conditionalWrites: false });
const B = () => `s3://${s3.store.bucket}`;

type Lock = Awaited<ReturnType<typeof acquireStoreLock>>;

describe('a store that ignores conditional writes', () => {
  it('is found out by the probe', async () => {
    expect(await honoursConditionalWrites(`${B()}/probe/news.state.json.lock.probe`)).toBe(false);
  });

  it('of three runs taking the lock at once, one gets it and the others name it; the note comes once', async () => {
    const state = `${B()}/race/news.state.json`;
    const notice = vi.fn();
    for (let round = 0; round < 3; round++) {
      const results = await Promise.allSettled([
        acquireStoreLock(state, new Date(), notice),
        acquireStoreLock(state, new Date(), notice),
        acquireStoreLock(state, new Date(), notice),
      ]);
      const held = results.filter(
        (r): r is PromiseFulfilledResult<Lock> => r.status === 'fulfilled',
      );
      expect(held).toHaveLength(1);
      const since = JSON.parse((await s3.reader.bytes('race/news.state.json.lock')).toString())
        .since as string;
      for (const r of results) {
        if (r.status === 'rejected') {
          expect(r.reason).toBeInstanceOf(LockHeldError);
          expect(r.reason.message).toBe(
            `another run holds ${state} since ${since} (pid ${process.pid})`,
          );
        }
      }
      await held[0]!.value.release();
      expect(await s3.reader.exists('race/news.state.json.lock')).toBe(false);
    }
    expect(notice).toHaveBeenCalledTimes(1);
    expect(notice.mock.calls[0]![0]).toMatch(
      /^the store at http:\/\/127\.0\.0\.1:\d+ ignores conditional writes .*: the lock on s3:\/\/.*race\/news\.state\.json is taken by writing a token and reading it back 1 s later/,
    );
  }, 60_000);

  it('a live holder is not written over', async () => {
    const state = `${B()}/live/news.state.json`;
    const other = { pid: 4242, host: 'builder-2', since: '2026-11-20T11:45:00.000Z', token: 'x' };
    await s3.reader.put('live/news.state.json.lock', JSON.stringify(other));
    await expect(acquireStoreLock(state, new Date())).rejects.toThrow(
      `another run holds ${state} since 2026-11-20T11:45:00.000Z (pid 4242 on builder-2)`,
    );
    expect(JSON.parse((await s3.reader.bytes('live/news.state.json.lock')).toString())).toEqual(
      other,
    );
  });

  it('a holder whose token was replaced finds out at its next check, and leaves the other lock', async () => {
    const state = `${B()}/lost/news.state.json`;
    const lock = await acquireStoreLock(state, new Date());
    await lock.verify();
    const other = { pid: 9, host: 'builder-3', since: '2026-11-20T12:00:01.000Z', token: 'y' };
    await s3.reader.put('lost/news.state.json.lock', JSON.stringify(other));
    await expect(lock.verify()).rejects.toThrow(
      `the lock on ${state} was taken over by another run, which holds it since 2026-11-20T12:00:01.000Z (pid 9 on builder-3)`,
    );
    await lock.release();
    expect(await s3.reader.exists('lost/news.state.json.lock')).toBe(true);
  });

  it("the README's s3:// cron line twice, 1.2 s apart: each record once, the second exits 1 naming the first", async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'news-s3-race-')), 'news.log');
    const state = `${B()}/en/news.state.json`;
    const args = [
      BIN,
      'search',
      '--base-url',
      s3.mock.url,
      '--api-key',
      'api_live_mock_pro',
      '--language-code',
      'en',
      '--published-at-start',
      '2026-11-01',
      '--state',
      state,
      '--skip-empty',
      '-f',
      'parquet',
      '-o',
      `${B()}/en/data/`,
      '--partition-by',
      'day',
      '--max-points',
      '500',
      '--log-file',
      log,
      '-q',
    ];
    const env = { ...process.env, ...s3.store.env };
    const first = spawnCollecting(process.execPath, args, env);
    await new Promise((r) => setTimeout(r, 1200));
    const second = spawnCollecting(process.execPath, args, env);
    const codes = [await first.exit, await second.exit];
    expect(codes, `${first.stderr()}\n${second.stderr()}`).toEqual([0, 1]);
    expect(second.stderr()).toMatch(
      new RegExp(
        `^error: another run holds ${state.replace(/[./]/g, '\\$&')} since \\S+ \\(pid ${first.child.pid}\\)\nhint: `,
      ),
    );
    expect(first.stderr()).toBe('');

    // What the data set must hold: every article of the query, once.
    const all = await runCli(
      [
        'search',
        '--base-url',
        s3.mock.url,
        '--api-key',
        'api_live_mock_pro',
        '--language-code',
        'en',
        '--published-at-start',
        '2026-11-01',
        '--all',
        '-f',
        'jsonl',
      ],
      { now: NOW },
    );
    const expected = all.stdout.split('\n').filter((l) => l !== '').length;
    expect(expected).toBeGreaterThan(100);
    const [[rows, distinct]] = (await s3.reader.duck(
      'en/data/',
      "SELECT count(*)::INT, count(DISTINCT id)::INT FROM read_parquet('{files}', hive_partitioning = true)",
    )) as [[number, number]];
    expect([rows, distinct]).toEqual([expected, expected]);

    // And the same line again, as cron runs it: nothing new, nothing left behind.
    const third = spawnCollecting(process.execPath, args, env);
    expect(await third.exit, third.stderr()).toBe(0);
    const keys = await s3.reader.keys('en/');
    expect(keys.filter((k) => k.includes('_staging') || k.endsWith('.lock'))).toEqual([]);
  }, 120_000);
});
