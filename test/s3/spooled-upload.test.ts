/**
 * The partitions of a data set written to a store wait on local disk and go
 * up once whole (src/output/s3/spooled-upload-sink.ts): nothing reaches the
 * store before commit, the object is the bytes written (in parts when large),
 * the temporary file goes whether it commits or aborts, a few uploads run
 * at once, and `--partition-by` into a store takes this path.
 */
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { S3SpooledSink, UPLOADS_AT_ONCE, queued } from '../../src/output/s3/spooled-upload-sink.js';
import { runCli } from '../helpers/cli.js';
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
});
