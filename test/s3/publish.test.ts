/**
 * Publishing a data set into a store (step 4 of docs/CRON.md, "The commit"):
 * a publish the store fails says how many files are out and that the same
 * command publishes the rest; the run that does says how many it published
 * itself; and a data set at a bucket's root is named as such.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type S3Store, type StoreReader, startStore, useMockAndStore } from './store.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const s3 = useMockAndStore({ now: NOW });

const args = (mock: string, bucket: string, state: string, root: string) => [
  'search',
  '--base-url',
  mock,
  '--api-key',
  'api_live_mock_pro',
  '--published-at-start',
  '2026-11-10',
  '--state',
  `s3://${bucket}/${state}`,
  '-f',
  'jsonl',
  '-o',
  `s3://${bucket}/${root}`,
  '--partition-by',
  'day',
];

describe('a publish the store fails', () => {
  it.each([
    ['500', 'the store failed 5 attempts (HTTP 500, InternalError'],
    ['reset', 'the store did not answer in time'],
  ] as const)(
    '(%s) says how many files are out and that the same command publishes the rest; the rerun says what it published',
    async (fault, says) => {
      const state = `pub-${fault}/news.state.json`;
      const root = `pub-${fault}/data/`;
      let copies = 0;
      s3.store.setFault((op) => (op === 'CopyObject' && ++copies > 2 ? fault : undefined));
      let failed: Awaited<ReturnType<typeof runCli>>;
      try {
        failed = await runCli(args(s3.mock.url, s3.store.bucket, state, root), {
          now: NOW,
          env: s3.store.env,
        });
      } finally {
        s3.store.setFault(undefined);
      }
      expect(failed.code, failed.stderr).not.toBe(0);
      const recorded = JSON.parse((await s3.reader.bytes(state)).toString()) as {
        pending: { run: string; files: string[] };
      };
      const total = recorded.pending.files.length;
      expect(total).toBeGreaterThan(3);
      expect(failed.stderr).toMatch(
        new RegExp(
          `^error: cannot publish s3://.*${root}.*: .*${says.replace(/[()]/g, '\\$&')}`,
          'm',
        ),
      );
      expect(failed.stderr).toContain(
        `hint: 2 of ${total} files published; the same command publishes the rest (--state s3://${s3.store.bucket}/${state} records them)`,
      );

      const rerun = await runCli(args(s3.mock.url, s3.store.bucket, state, root), {
        now: NOW,
        env: s3.store.env,
      });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stderr).toContain(
        `note: completed an interrupted run (${recorded.pending.run}): published ${total - 2} of its ${total} files under s3://${s3.store.bucket}/${root} (2 were published before it stopped)`,
      );
      const ids: number[] = [];
      for (const key of await s3.reader.keys(root)) {
        if (!key.endsWith('.jsonl')) continue;
        for (const line of (await s3.reader.bytes(key)).toString().split('\n')) {
          if (line !== '') ids.push((JSON.parse(line) as { id: number }).id);
        }
      }
      expect(ids.length).toBeGreaterThan(0);
      expect(new Set(ids).size).toBe(ids.length);
      expect((await s3.reader.keys(root)).filter((k) => k.includes('_staging'))).toEqual([]);
    },
    120_000,
  );
});

describe('a data set at the root of a bucket', () => {
  it('is written with a note saying so', async () => {
    let own: { store: S3Store; reader: StoreReader } | undefined;
    try {
      own = await startStore({ bucket: 'news-root' });
      const r = await runCli(
        [
          'search',
          '--base-url',
          s3.mock.url,
          '--api-key',
          'api_live_mock_pro',
          '--published-at-start',
          '2026-11-19',
          '--all',
          '-f',
          'jsonl',
          '-o',
          's3://news-root',
          '--partition-by',
          'day',
        ],
        { now: NOW, env: own.store.env },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        "note: s3://news-root is the root of the bucket: the data set's folders (published_date=…/) and its _staging/ go beside whatever else the bucket holds; -o s3://news-root/news/ keeps it under a prefix of its own",
      );
      expect((await own.reader.keys()).every((k) => k.startsWith('published_date='))).toBe(true);
    } finally {
      await own?.store.close();
      // The other tests of this file use the first store again.
      Object.assign(process.env, s3.store.env);
    }
  });
});
