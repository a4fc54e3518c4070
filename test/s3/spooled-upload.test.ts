/**
 * The partitions of a data set written to a store wait on local disk and go
 * up once whole (src/output/destinations/s3/spooled-upload-sink.ts): nothing reaches the
 * store before commit, the object is the bytes written (in parts when large),
 * the temporary file goes whether it commits or aborts, a few uploads run
 * at once, and `--partition-by` into a store takes this path. A process
 * killed with kill -9 leaves one folder, `news-upload-PID-…`, which the next
 * run that spools removes.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import {
  S3SpooledSink,
  UPLOADS_AT_ONCE,
  queued,
  sweepSpoolLeftovers,
} from '../../src/output/destinations/s3/spooled-upload-sink.js';
import { runCli } from '../helpers/cli.js';
import { BIN, spawnCollecting } from '../helpers/spawn.js';
import { useMockAndStore } from './store.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const s3 = useMockAndStore({ now: NOW });

const spools = () => readdirSync(tmpdir()).filter((name) => name.startsWith('news-upload-'));
const opsOn = (key: string) =>
  s3.store.log.filter((l) => l.path.endsWith(`/${key}`)).map((l) => l.op);

describe('S3SpooledSink', () => {
  it('sends nothing before commit, then the whole object in parts; the temporary file goes', async () => {
    const key = 'spool/big.jsonl';
    const before = new Set(spools());
    const sink = await S3SpooledSink.open(`s3://${s3.store.bucket}/${key}`);
    const line = `${JSON.stringify({ id: 1, title: 'x'.repeat(1000) })}\n`;
    const lines = Math.ceil((9 * 1024 * 1024) / line.length);
    for (let i = 0; i < lines; i++) await sink.write(line);
    await sink.flush();
    const mine = spools().filter((name) => !before.has(name));
    expect(mine).toHaveLength(1);
    expect(opsOn(key)).toEqual([]);
    await sink.commit();
    expect(opsOn(key).filter((op) => op === 'UploadPart').length).toBeGreaterThanOrEqual(2);
    expect((await s3.reader.bytes(key)).equals(Buffer.from(line.repeat(lines)))).toBe(true);
    expect(existsSync(join(tmpdir(), mine[0]!))).toBe(false);
  });

  it('gzips a .gz key; abort leaves nothing at the key nor on disk', async () => {
    const gz = await S3SpooledSink.open(`s3://${s3.store.bucket}/spool/small.csv.gz`);
    await gz.write('id,title\r\n1,one\r\n');
    await gz.commit();
    expect(gunzipSync(await s3.reader.bytes('spool/small.csv.gz')).toString()).toBe(
      'id,title\r\n1,one\r\n',
    );

    const before = new Set(spools());
    const dropped = await S3SpooledSink.open(`s3://${s3.store.bucket}/spool/dropped.jsonl`);
    await dropped.write('{"id":1}\n');
    await dropped.flush();
    await dropped.abort();
    expect(await s3.reader.exists('spool/dropped.jsonl')).toBe(false);
    expect(spools().filter((name) => !before.has(name))).toEqual([]);
  });

  it(`uploads at most ${UPLOADS_AT_ONCE} objects at once`, async () => {
    let running = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const tasks = Array.from({ length: 10 }, () =>
      queued(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((go) => gates.push(go));
        running--;
      }),
    );
    while (gates.length > 0 || running > 0) {
      await new Promise((r) => setTimeout(r, 1));
      gates.shift()?.();
    }
    await Promise.all(tasks);
    expect(most).toBe(UPLOADS_AT_ONCE);
  });

  it('--partition-by into a store stages every partition this way', async () => {
    const open = vi.spyOn(S3SpooledSink, 'open');
    try {
      const r = await runCli(
        [
          'search',
          '--base-url',
          s3.mock.url,
          '--api-key',
          'api_live_mock_pro',
          '--published-at-start',
          '2026-11-15T00:00:00Z',
          '--all',
          '-f',
          'jsonl',
          '--partition-by',
          'day',
          '-o',
          `s3://${s3.store.bucket}/spooled-lake/`,
        ],
        { now: NOW, env: s3.store.env },
      );
      expect(r.code, r.stderr).toBe(0);
      const partitions = (await s3.reader.keys('spooled-lake/')).filter((k) =>
        k.endsWith('.jsonl'),
      );
      expect(partitions.length).toBeGreaterThan(1);
      expect(open).toHaveBeenCalledTimes(partitions.length);
    } finally {
      open.mockRestore();
    }
  });

  it('a folder whose process is gone is removed by the next run; a live one is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-spool-sweep-'));
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.once('exit', r));
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      const made = (name: string, ageMs = 0) => {
        mkdirSync(join(dir, name));
        writeFileSync(join(dir, name, '1'), 'x');
        const when = new Date(Date.now() - ageMs);
        utimesSync(join(dir, name), when, when);
        return join(dir, name);
      };
      const dead = made(`news-upload-${gone.pid}-AbC123`);
      made(`news-upload-${live.pid}-XyZ789`);
      made(`news-upload-${process.pid}-Mine00`);
      // Named as before pids were in the name: taken for leftovers once a day old.
      const old = made('news-upload-q1W2e3', 2 * 24 * 3600_000);
      made('news-upload-r4T5y6');
      made('unrelated-folder');
      expect((await sweepSpoolLeftovers(dir)).sort()).toEqual([dead, old].sort());
      expect(readdirSync(dir).sort()).toEqual(
        [
          `news-upload-${live.pid}-XyZ789`,
          `news-upload-${process.pid}-Mine00`,
          'news-upload-r4T5y6',
          'unrelated-folder',
        ].sort(),
      );
    } finally {
      live.kill('SIGKILL');
    }
  });

  it('kill -9 leaves one spool folder, and the next partitioned run removes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-spool-kill-'));
    const args = [
      BIN,
      'search',
      '--base-url',
      s3.mock.url,
      '--api-key',
      'api_live_mock_pro',
      '--published-at-start',
      '2026-11-01T00:00:00Z',
      '--per-page',
      '10',
      '--all',
      '-f',
      'jsonl',
      '--partition-by',
      'day',
      '-o',
      `s3://${s3.store.bucket}/killed-spool/`,
    ];
    const env = { ...process.env, ...s3.store.env, TMPDIR: dir };
    const child = spawnCollecting(process.execPath, args, env);
    const mine = () => readdirSync(dir).filter((n) => n.startsWith('news-upload-'));
    // Killed once several partitions are open (all in one folder): a fixed
    // wait raced the run's own end on a quick machine.
    const spooled = () => {
      const [folder] = mine();
      if (folder === undefined) return 0;
      try {
        return readdirSync(join(dir, folder)).length;
      } catch {
        return 0;
      }
    };
    for (let i = 0; i < 4000 && spooled() < 2; i++) {
      await new Promise((r) => setTimeout(r, 2));
    }
    child.child.kill('SIGKILL');
    await child.exit;
    expect(mine()).toHaveLength(1);
    expect(mine()[0]).toMatch(new RegExp(`^news-upload-${child.child.pid}-`));
    expect(readdirSync(join(dir, mine()[0]!)).length).toBeGreaterThan(1);

    const next = spawnCollecting(process.execPath, args, env);
    expect(await next.exit, next.stderr()).toBe(0);
    expect(mine()).toEqual([]);
  }, 60_000);
});
