/**
 * The store failing under an upload, and runs killed at random: the SDK's
 * retries absorb 500s, SlowDowns and a connection reset mid-part (the object
 * equals the fault-free export); a part that keeps failing aborts the
 * multipart upload and leaves nothing at the key; kill -9 at random moments
 * of partitioned `--state s3://…` runs, each followed by the same command,
 * leaves every record in the data set exactly once and never a partial
 * object. (bench/s3-reliability.mjs runs the heavy version: 20 kills.)
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../bench/fault-proxy.mjs';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { BIN, spawnCollecting } from '../helpers/spawn.js';
import { type S3Store, type StoreReader, startStore } from './store.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let big: MockServer;
let store: S3Store;
let reader: StoreReader;
let dir: string;
let baseline: Buffer;
const ARGS = () => [
  'search',
  '--base-url',
  big.url,
  '--api-key',
  'api_live_mock_pro',
  '--published-at-start',
  '2026-10-01',
  '--all',
  '--per-page',
  '100',
];

beforeAll(async () => {
  // About 9 MB of JSON lines: two parts of 8 MiB.
  big = await startMockServer({ port: 0, quiet: true, now: NOW, articles: 4200 });
  ({ store, reader } = await startStore());
  dir = mkdtempSync(join(tmpdir(), 'news-s3-faults-'));
  const local = join(dir, 'baseline.jsonl');
  expect((await runCli([...ARGS(), '-o', local], { now: NOW })).code).toBe(0);
  baseline = readFileSync(local);
  expect(baseline.length).toBeGreaterThan(8 * 1024 * 1024);
}, 120_000);
afterAll(async () => {
  await big.close();
  await store.close();
});

async function upload(key: string): Promise<{ code: number; stderr: string }> {
  return runCli([...ARGS(), '-o', `s3://${store.bucket}/${key}`], { now: NOW, env: store.env });
}

describe('faults under an upload', () => {
  it('500 and SlowDown on parts and the completion: retried, the object is whole', async () => {
    const seen = new Map<string, number>();
    store.setFault((op) => {
      if (!['UploadPart', 'CompleteMultipartUpload', 'CreateMultipartUpload'].includes(op))
        return undefined;
      const n = (seen.get(op) ?? 0) + 1;
      seen.set(op, n);
      return n % 2 === 1 ? (n % 4 === 1 ? '500' : 'slowdown') : undefined;
    });
    try {
      const r = await upload('faults/retried.jsonl');
      expect(r.code, r.stderr).toBe(0);
      expect(store.faults['500']).toBeGreaterThan(0);
      expect(store.faults.slowdown).toBeGreaterThan(0);
      expect((await reader.bytes('faults/retried.jsonl')).equals(baseline)).toBe(true);
    } finally {
      store.setFault(undefined);
    }
  }, 120_000);

  it('a connection reset in the middle of a part: retried, the object is whole', async () => {
    let resets = 0;
    store.setFault((op) => (op === 'UploadPart' && resets++ < 2 ? 'reset' : undefined));
    try {
      const r = await upload('faults/reset.jsonl');
      expect(r.code, r.stderr).toBe(0);
      expect(store.faults.reset).toBe(2);
      expect((await reader.bytes('faults/reset.jsonl')).equals(baseline)).toBe(true);
    } finally {
      store.setFault(undefined);
    }
  }, 120_000);

  it('a part that keeps failing: exit 1, the upload aborted, nothing at the key', async () => {
    store.setFault((op) => (op === 'UploadPart' ? '500' : undefined));
    try {
      const r = await upload('faults/failed.jsonl');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /error: cannot write s3:\/\/.*faults\/failed\.jsonl: the store failed 5 attempts \(HTTP 500, InternalError/,
      );
      expect(await reader.exists('faults/failed.jsonl')).toBe(false);
      expect([...store.uploads.values()].filter((k) => k.includes('faults/failed'))).toEqual([]);
      expect(store.log.some((l) => l.op === 'AbortMultipartUpload')).toBe(true);
    } finally {
      store.setFault(undefined);
    }
  }, 120_000);
});

describe('kill -9 at random moments of --state s3:// partitioned runs', () => {
  it('every record once, no partial object, after the same command completes each', async () => {
    const slow = await startMockServer({ port: 0, quiet: true, now: NOW, latencyMs: 30 });
    const random = prng(7);
    const state = `s3://${store.bucket}/killed/news.state.json`;
    const args = [
      BIN,
      'search',
      '--base-url',
      slow.url,
      '--api-key',
      'api_live_mock_pro',
      '--published-at-start',
      '2026-11-17T00:00:00Z',
      '--per-page',
      '10',
      '--state',
      state,
      '-f',
      'parquet',
      '-o',
      `s3://${store.bucket}/killed/data/`,
      '--partition-by',
      'day',
      '-q',
    ];
    const env = { ...process.env, ...store.env };
    const posted: number[] = [];
    let expected: number[] = [];
    let killed = 0;
    try {
      for (let i = 0; i < 4; i++) {
        const response = await fetch(`${slow.url}/__mock/articles`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify([
            { title: `k${i}`, published_at: `2026-11-${17 + (i % 3)}T10:00:00Z` },
          ]),
        });
        posted.push(...((await response.json()) as { ids: number[] }).ids);
        const child = spawnCollecting(process.execPath, args, env);
        await new Promise((r) => setTimeout(r, 200 + Math.floor(random() * 1500)));
        child.child.kill('SIGKILL');
        if ((await child.exit) === null) killed++;
      }
      const last = spawnCollecting(process.execPath, args, env);
      expect(await last.exit, last.stderr()).toBe(0);
      // What the data set must hold: every article of the query, fetched in one go.
      const full = join(dir, 'killed-full.jsonl');
      const all = await runCli(
        [
          'search',
          '--base-url',
          slow.url,
          '--api-key',
          'api_live_mock_pro',
          '--published-at-start',
          '2026-11-17T00:00:00Z',
          '--all',
          '-o',
          full,
        ],
        { now: NOW },
      );
      expect(all.code, all.stderr).toBe(0);
      expected = readFileSync(full, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (JSON.parse(l) as { id: number }).id);
    } finally {
      await slow.close();
    }
    const [[rows, distinct]] = (await reader.duck(
      'killed/data/',
      "SELECT count(*)::INT, count(DISTINCT id)::INT FROM read_parquet('{files}', hive_partitioning = true)",
    )) as [[number, number]];
    expect(rows).toBe(distinct);
    const ids = new Set(
      (
        (await reader.duck(
          'killed/data/',
          "SELECT id::BIGINT FROM read_parquet('{files}')",
        )) as bigint[][]
      ).map((r) => Number(r[0])),
    );
    for (const id of posted) expect(ids.has(id)).toBe(true);
    // 0 lost, 0 duplicated, 0 extra.
    expect(rows).toBe(expected.length);
    expect([...ids].sort()).toEqual([...expected].sort());
    const keys = await reader.keys('killed/');
    expect(keys.filter((k) => k.includes('_staging') || k.endsWith('.lock'))).toEqual([]);
    expect(keys.filter((k) => k.startsWith('killed/data/') && !k.endsWith('.parquet'))).toEqual([]);
    expect(killed).toBeGreaterThan(0);
  }, 180_000);
});
