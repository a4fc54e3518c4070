/** The pure parts of the cron modules, by tables of cases. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateFrom } from '../../../src/cli/unattended/budget.js';
import { parseSpan } from '../../../src/cli/unattended/run-options.js';
import { expandTemplate } from '../../../src/cli/unattended/output-template.js';
import { HIVE_NULL, partitionDir } from '../../../src/cli/unattended/partition.js';
import { fingerprintOf, nextRunState } from '../../../src/cli/run-state/run-state.js';
import { LockHeldError, acquireLock } from '../../../src/cli/run-state/state-lock.js';
import { splitWindows } from '../../../src/cli/unattended/windows.js';

const NOW = new Date('2026-11-20T15:04:05.678Z');

describe('expandTemplate', () => {
  it.each([
    ['out/{date}.csv', {}, 'out/2026-11-20.csv'],
    ['out/{date}T{time}.csv', {}, 'out/2026-11-20T150405.csv'],
    [
      '{from}_{to}.jsonl',
      { from: '2026-11-01', to: '2026-11-20T10:00:00Z' },
      '2026-11-01_2026-11-20T100000Z.jsonl',
    ],
    ['{from}_{to}.jsonl', {}, 'start_2026-11-20T150405Z.jsonl'],
    ['plain.csv', {}, 'plain.csv'],
  ])('%s %j → %s', (template, range, expected) => {
    expect(expandTemplate(template, { now: NOW, ...range } as never)).toBe(expected);
  });
  it('refuses an unknown field', () => {
    expect(() => expandTemplate('{nope}', { now: NOW, from: undefined, to: undefined })).toThrow(
      /\{nope\}/,
    );
  });
});

describe('partitionDir', () => {
  const article = {
    id: 1,
    published_at: '2026-11-20T23:30:00-02:00',
    language: 'EN',
    source: { location: { country_code: 'GB' } },
  };
  it.each([
    ['day', 'published_date=2026-11-21'],
    ['month', 'published_month=2026-11'],
    ['language.code', 'language_code=en'],
    ['source.country.code', 'source_country_code=gb'],
  ] as const)('%s → %s (UTC, lower-case codes)', (key, dir) => {
    expect(partitionDir(key, article)).toBe(dir);
  });
  it('a missing value is the hive default partition', () => {
    expect(partitionDir('source.country.code', { id: 2 })).toBe(`source_country_code=${HIVE_NULL}`);
  });
});

describe('splitWindows and spans', () => {
  it('covers the range in windows, newest first for desc', () => {
    const w = splitWindows(
      { 'published_at.start': '2026-10-01', 'published_at.end': '2026-10-10' },
      parseSpan('4d'),
      NOW,
    );
    expect(w).toEqual([
      { start: '2026-10-09T00:00:00Z', end: '2026-10-11T00:00:00Z' },
      { start: '2026-10-05T00:00:00Z', end: '2026-10-09T00:00:00Z' },
      { start: '2026-10-01T00:00:00Z', end: '2026-10-05T00:00:00Z' },
    ]);
  });
  it('without an end, the newest window reaches an hour past the local clock (which may be behind)', () => {
    const w = splitWindows({ 'published_at.start': '2026-11-10' }, parseSpan('7d'), NOW);
    expect(w[0]).toEqual({ start: '2026-11-17T00:00:00Z', end: '2026-11-20T16:04:05Z' });
    expect(w.at(-1)).toEqual({ start: '2026-11-10T00:00:00Z', end: '2026-11-17T00:00:00Z' });
  });
  it.each(['0d', '7', 'd', '1y'])('refuses span %s', (span) => {
    expect(() => parseSpan(span)).toThrow(/--split-window/);
  });
});

describe('state', () => {
  it('the fingerprint ignores paging and sorting but not filters', () => {
    const a = fingerprintOf({
      method: 'POST',
      path: '/v1/news/everything',
      body: { 'language.code': 'en', page: 3, 'sort.by': 'id' },
    });
    const b = fingerprintOf({
      method: 'POST',
      path: '/v1/news/everything',
      body: { 'language.code': 'en', per_page: 50 },
    });
    const c = fingerprintOf({
      method: 'POST',
      path: '/v1/news/everything',
      body: { 'language.code': 'fr' },
    });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
  it('the watermark never goes down', () => {
    const spec = { method: 'POST', path: '/v1/news/everything', body: {} } as const;
    const one = nextRunState(spec, undefined, 50, 10, NOW);
    expect(nextRunState(spec, one, undefined, 0, NOW).watermark).toEqual({ by: 'id', value: 50 });
    expect(nextRunState(spec, one, 70, 3, NOW)).toMatchObject({
      watermark: { value: 70 },
      runs: 2,
      records: 13,
    });
  });
  it('the lock is exclusive and released', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'news-lock-')), 's.json');
    const lock = await acquireLock(file, NOW);
    await expect(acquireLock(file, NOW)).rejects.toBeInstanceOf(LockHeldError);
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
    const again = await acquireLock(file, NOW);
    await again.release();
  });
  it('a torn lock file (not JSON) is stale', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'news-lock-')), 's.json');
    writeFileSync(`${file}.lock`, '{"pi');
    const lock = await acquireLock(file, NOW);
    await lock.release();
  });
});

describe('estimateFrom', () => {
  it.each([
    [2400, 100, undefined, false, { pages: 24, points: 24 }],
    [2401, 100, undefined, false, { pages: 25, points: 25 }],
    [0, 100, undefined, false, { pages: 1, points: 1 }],
    [2400, 100, 150, true, { pages: 2, points: 4 }],
  ] as const)(
    '%d matching, %d a page, limit %s, prompt %s',
    (count, perPage, limit, prompt, expected) => {
      expect(estimateFrom(count, perPage, limit, prompt)).toMatchObject(expected);
    },
  );
});
