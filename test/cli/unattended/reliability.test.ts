/**
 * Fast, deterministic versions of the reliability suite (bench/reliability.mjs
 * runs the full one: 20 seeds, 20 kills). Faults of every kind through a
 * seeded proxy: the export equals the fault-free one byte for byte. kill -9
 * of the built binary mid-export: no file at the destination, and --resume
 * ends identical.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng, startFaultProxy } from '../../../bench/fault-proxy.mjs';
import { type MockServer, startMockServer } from '../../../src/mock/server.js';
import { runCli } from '../../helpers/cli.js';
import { BIN, runToEnd, spawnCollecting } from '../../helpers/spawn.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const QUERY = ['--published-at-start', '2026-11-18T00:00:00Z', '--per-page', '20', '--all'];
let mock: MockServer;
let slow: MockServer;
let dir: string;
let baseline: Buffer;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, quiet: true, now: NOW });
  slow = await startMockServer({ port: 0, quiet: true, now: NOW, latencyMs: 40 });
  dir = mkdtempSync(join(tmpdir(), 'news-reliability-'));
  const base = join(dir, 'baseline.jsonl');
  const r = await runCli(
    ['search', '--base-url', mock.url, '--api-key', 'api_live_mock_pro', ...QUERY, '-o', base],
    { now: NOW },
  );
  expect(r.code, r.stderr).toBe(0);
  baseline = readFileSync(base);
});
afterAll(async () => {
  await mock.close();
  await slow.close();
});

describe('30 % injected faults (500, 502, 429, reset, timeout)', () => {
  for (const seed of [1, 2]) {
    it(`seed ${seed}: the export equals the fault-free one`, { timeout: 120_000 }, async () => {
      const proxy = await startFaultProxy({ target: mock.url, rate: 0.3, seed, retryAfter: 0 });
      try {
        const out = join(dir, `faulty-${seed}.jsonl`);
        const r = await runCli(
          [
            'search',
            '--base-url',
            proxy.url,
            '--api-key',
            'api_live_mock_pro',
            ...QUERY,
            '-o',
            out,
            '--retries',
            '10',
            '--timeout',
            '1',
          ],
          { now: NOW },
        );
        expect(r.code, r.stderr).toBe(0);
        expect(Object.values(proxy.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
        expect(readFileSync(out).equals(baseline)).toBe(true);
      } finally {
        await proxy.close();
      }
    });
  }
});

describe('kill -9 mid-export', () => {
  const random = prng(42);
  for (let i = 0; i < 3; i++) {
    it(`kill ${i + 1}: nothing at the destination; --resume ends identical`, {
      timeout: 60_000,
    }, async () => {
      const out = join(dir, `killed-${i}.jsonl`);
      const args = [
        BIN,
        'search',
        '--base-url',
        slow.url,
        '--api-key',
        'api_live_mock_pro',
        ...QUERY,
        '-o',
        out,
        '-q',
      ];
      const run = spawnCollecting(process.execPath, args, process.env);
      // Somewhere between start-up and the end of paging.
      await new Promise((r) => setTimeout(r, 300 + Math.floor(random() * 900)));
      run.child.kill('SIGKILL');
      const code = await run.exit;
      if (code === 0) return; // finished first: nothing to resume (rare on a fast machine)
      if (existsSync(out)) {
        // Killed after the rename, before the exit: the file is the whole export.
        expect(readFileSync(out).equals(baseline)).toBe(true);
        return;
      }
      const resumed = await runToEnd(
        process.execPath,
        [...args.slice(0, -1), '--resume'],
        process.env,
      );
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(readFileSync(out).equals(baseline)).toBe(true);
      expect(existsSync(`${out}.checkpoint.json`)).toBe(false);
    });
  }
});
