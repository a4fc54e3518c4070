/**
 * Two machines, one `--state s3://…`: the lock is created with a conditional
 * PUT (If-None-Match: *), so only one run holds it; the other exits 1 with
 * the same "another run holds …" line as the local lock. s3rver ignores the
 * condition, so the store here is s3rver behind bench/s3-store.mjs, which
 * enforces it as S3, MinIO and R2 do.
 */
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { StagedRun } from '../../src/cli/unattended/commit.js';
import type { RunState } from '../../src/cli/run-state/run-state.js';
import { LEASE_MS, acquireStoreLock, isStaleLease } from '../../src/output/destinations/s3/lock.js';
import { LockHeldError, acquireLock } from '../../src/cli/run-state/state-lock.js';
import { openStreamState } from '../../src/cli/run-state/stream-state.js';
import { honoursConditionalWrites } from '../../src/output/destinations/s3/objects.js';
import { runCli } from '../helpers/cli.js';
import { useMockAndStore } from './store.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const s3 = useMockAndStore({ now: NOW });

const run = (state: string) =>
  runCli(
    [
      'search',
      '--base-url',
      s3.mock.url,
      '--api-key',
      'api_live_mock_pro',
      '--published-at-start',
      '2026-11-19',
      '--state',
      state,
      '-o',
      `s3://${s3.store.bucket}/lock-out/{time}.jsonl`,
    ],
    { now: NOW, env: s3.store.env },
  );

describe('the lock in the store', () => {
  it('of two runs taking it at once, exactly one gets it', async () => {
    const state = `s3://${s3.store.bucket}/race/news.state.json`;
    for (let round = 0; round < 5; round++) {
      const results = await Promise.allSettled([
        acquireStoreLock(state, new Date()),
        acquireStoreLock(state, new Date()),
        acquireStoreLock(state, new Date()),
      ]);
      const held = results.filter((r) => r.status === 'fulfilled');
      expect(held).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') {
          expect(r.reason).toBeInstanceOf(LockHeldError);
          expect(String(r.reason.message)).toMatch(
            new RegExp(`^another run holds ${state} since \\S+ \\(pid ${process.pid}\\)$`),
          );
        }
      }
      await (held[0] as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
      expect(await s3.reader.exists('race/news.state.json.lock')).toBe(false);
    }
  });

  it('a run on another machine holding it: exit 1, the state untouched', async () => {
    const state = `s3://${s3.store.bucket}/held/news.state.json`;
    const other = { pid: 4242, host: 'builder-2', since: '2026-11-20T11:45:00.000Z' };
    await s3.reader.put('held/news.state.json.lock', JSON.stringify(other));
    const r = await run(state);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: another run holds ${state} since 2026-11-20T11:45:00.000Z (pid 4242 on builder-2)`,
    );
    expect(r.stderr).toMatch(
      /hint: if no such run exists, remove s3:\/\/.*held\/news\.state\.json\.lock/,
    );
    expect(await s3.reader.exists('held/news.state.json')).toBe(false);
  });

  it('a lock whose process on this host is gone is taken over', async () => {
    const state = `s3://${s3.store.bucket}/dead/news.state.json`;
    const dead = { pid: 2 ** 22 + 7, host: hostname(), since: '2026-11-20T11:00:00.000Z' };
    await s3.reader.put('dead/news.state.json.lock', JSON.stringify(dead));
    const r = await run(state);
    expect(r.code, r.stderr).toBe(0);
    expect(await s3.reader.exists('dead/news.state.json')).toBe(true);
    expect(await s3.reader.exists('dead/news.state.json.lock')).toBe(false);
  });

  it('a lease not renewed for LEASE_MS is stale; a renewed one is not', () => {
    const info = { pid: 1, host: 'elsewhere', since: '' };
    const now = new Date('2026-11-20T12:00:00Z');
    expect(isStaleLease(info, new Date(now.getTime() - LEASE_MS - 1000), now)).toBe(true);
    expect(isStaleLease(info, new Date(now.getTime() - 60_000), now)).toBe(false);
  });

  it('a holder stalled past its lease writes no state, not even its first (pending: writing)', async () => {
    const state = `s3://${s3.store.bucket}/stalled/news.state.json`;
    const first = await run(state);
    expect(first.code, first.stderr).toBe(0);
    const recorded = await s3.reader.bytes('stalled/news.state.json');
    const lock = await acquireLock(state, new Date());
    // While it was suspended, the lease ran out and another run took the lock over.
    await s3.reader.put(
      'stalled/news.state.json.lock',
      JSON.stringify({ pid: 9, host: 'builder-3', since: '' }),
    );
    const staged = StagedRun.create(
      `s3://${s3.store.bucket}/stalled-out`,
      {
        file: state,
        spec: { method: 'POST', path: '/v1/news/everything', body: {} },
        base: JSON.parse(recorded.toString('utf8')) as RunState,
      },
      () => new Date(),
    );
    await expect(staged.stage('part.jsonl')).rejects.toThrow(/taken over by another run/);
    expect((await s3.reader.bytes('stalled/news.state.json')).equals(recorded)).toBe(true);
    await lock.release();
    expect(await s3.reader.exists('stalled/news.state.json.lock')).toBe(true);
  });

  it('a stream stalled past its lease stops before its next state write', async () => {
    const state = `s3://${s3.store.bucket}/stalled-stream/news.state.json`;
    const spec = { method: 'GET' as const, path: '/v1/news/stream', query: {} };
    const stream = await openStreamState(state, spec, false, () => new Date());
    await stream.written('500000100', 3);
    const recorded = await s3.reader.bytes('stalled-stream/news.state.json');
    await s3.reader.put(
      'stalled-stream/news.state.json.lock',
      JSON.stringify({ pid: 9, host: 'builder-3', since: '' }),
    );
    await expect(stream.written('500000200', 5)).rejects.toThrow(/taken over by another run/);
    expect((await s3.reader.bytes('stalled-stream/news.state.json')).equals(recorded)).toBe(true);
    await stream.close();
  });

  it('a holder whose lock was taken over finds out before it commits', async () => {
    const state = `s3://${s3.store.bucket}/lost/news.state.json`;
    const lock = await acquireStoreLock(state, new Date());
    await s3.reader.put(
      'lost/news.state.json.lock',
      JSON.stringify({ pid: 9, host: 'builder-3', since: '' }),
    );
    await expect(lock.verify()).rejects.toThrow(/taken over by another run/);
    await lock.release();
    // Released without removing the new owner's lock.
    expect(await s3.reader.exists('lost/news.state.json.lock')).toBe(true);
  });

  it('the probe: a store that honours conditional writes is found so in one request once the probe exists', async () => {
    const probe = `s3://${s3.store.bucket}/probe/news.state.json.lock.probe`;
    expect(await honoursConditionalWrites(probe)).toBe(true);
    const before = s3.store.log.length;
    expect(await honoursConditionalWrites(probe)).toBe(true);
    expect(s3.store.log.slice(before).map((l) => `${l.op} ${l.status}`)).toEqual(['PutObject 412']);
  });

  it('--state naming a bucket or a folder is refused as typed, before any request (exit 2)', async () => {
    for (const [state, what] of [
      [`s3://${s3.store.bucket}`, 'a bucket'],
      [`s3://${s3.store.bucket}/en/`, 'a folder'],
    ] as const) {
      const before = s3.store.log.length;
      const r = await run(state);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `error: --state ${state} names ${what}, not an object\nhint: name the state object, e.g. --state ${state.endsWith('/') ? state : `${state}/`}news.state.json\n`,
      );
      expect(s3.store.log.length).toBe(before);
    }
  });

  it('never removes the files another live process on this host is staging; once it has ended, they go', async () => {
    const state = `s3://${s3.store.bucket}/busy/news.state.json`;
    expect((await run(state)).code).toBe(0);
    const done = JSON.parse((await s3.reader.bytes('busy/news.state.json')).toString()) as RunState;
    // A process that runs on: what a run still staging would be.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    const staging = `s3://${s3.store.bucket}/busy-out/_staging/part-x`;
    try {
      await s3.reader.put('busy-out/_staging/part-x/a.jsonl.staged', '{"id":1}\n');
      const pending = {
        stage: 'writing',
        run: 'part-x',
        root: `s3://${s3.store.bucket}/busy-out/`,
        staging,
        files: ['a.jsonl'],
        owner: { pid: other.pid, host: hostname() },
      };
      await s3.reader.put('busy/news.state.json', JSON.stringify({ ...done, pending }));
      const r = await run(state);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `error: another run holds ${state} since ${done.updated_at} (pid ${other.pid})`,
      );
      expect(await s3.reader.exists('busy-out/_staging/part-x/a.jsonl.staged')).toBe(true);
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
    }
    const after = await run(state);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain('removed the staged files of an interrupted run (part-x)');
    expect(await s3.reader.exists('busy-out/_staging/part-x/a.jsonl.staged')).toBe(false);
  });

  it('a holder whose lock was removed by hand finds out at its next check', async () => {
    const state = `s3://${s3.store.bucket}/removed/news.state.json`;
    const lock = await acquireStoreLock(state, new Date());
    await s3.reader.remove('removed/news.state.json.lock');
    await expect(lock.verify()).rejects.toThrow(
      `the lock on ${state} was taken over by another run, which has released it since`,
    );
    await lock.release();
  });
});
