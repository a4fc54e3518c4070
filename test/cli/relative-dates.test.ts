/**
 * Relative dates (src/params/relative-dates.ts): resolved once at the start
 * of the run in UTC, shown resolved by --dry-run, accepted by every date
 * flag in both spellings and by --param, and fingerprinted as typed by
 * --state, so the same cron line every 15 minutes is the same query.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { isRelativeDate, resolveRelativeDate } from '../../src/params/relative-dates.js';
import { buildRequestBody } from '../../src/params/validate.js';
import { runCli } from '../helpers/cli.js';

const NOW = new Date('2026-11-20T12:34:56.789Z');

describe('the rule', () => {
  it.each([
    ['now', '2026-11-20T12:34:56Z'],
    ['today', '2026-11-20'],
    ['Yesterday', '2026-11-19'],
    ['-30m', '2026-11-20T12:04:56Z'],
    ['-24h', '2026-11-19T12:34:56Z'],
    ['-7d', '2026-11-13T12:34:56Z'],
    ['-2w', '2026-11-06T12:34:56Z'],
    [' -1d ', '2026-11-19T12:34:56Z'],
  ])('%s → %s', (text, resolved) => {
    expect(resolveRelativeDate(text, NOW)).toBe(resolved);
    expect(isRelativeDate(text)).toBe(true);
  });

  it.each(['-3y', '24h', '+1d', '-1.5h', 'tomorrow', '-h', '2026-11-20', ''])(
    '%j is not one',
    (text) => {
      expect(resolveRelativeDate(text, NOW)).toBeUndefined();
    },
  );

  it('is resolved in the body, kept as typed beside it, and checked like any date', () => {
    const body = buildRequestBody(
      [
        { name: 'published_at.start', raw: '-7d', label: '--published-at-start' },
        { name: 'published_at.end', raw: 'today', label: '--published-at-end' },
      ],
      { now: NOW },
    );
    expect(JSON.parse(JSON.stringify(body))).toEqual({
      'published_at.start': '2026-11-13T12:34:56Z',
      'published_at.end': '2026-11-20',
    });
    // The cross rules see the resolved dates: a title search over -40d is ER0110.
    expect(() =>
      buildRequestBody(
        [
          { name: 'title', raw: 'rates', label: '--title' },
          { name: 'published_at.start', raw: '-40d', label: '--published-at-start' },
        ],
        { now: NOW },
      ),
    ).toThrow(/ER0110/);
    expect(() =>
      buildRequestBody([{ name: 'published_at.start', raw: 'now', label: '--x' }], { now: NOW }),
    ).not.toThrow();
  });
});

describe('on the command line', () => {
  it.each([
    [['--published-at-start', '-24h']],
    [['--published-at-start=-24h']],
    [['--param', 'published_at.start=-24h']],
  ])('%j: --dry-run shows the resolved date', async (flags) => {
    const r = await runCli(['search', '--mock', '--dry-run', ...flags], { now: NOW });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"published_at.start": "2026-11-19T12:34:56Z"');
    expect(r.stdout).not.toContain('-24h');
  });

  it('every command with date filters takes them: count, stream, trends', async () => {
    for (const argv of [
      ['count', '--published-at-end', 'yesterday'],
      ['stream', '--published-at-start', '-30m'],
      ['trends', '--field', 'source.id', '--published-at', 'today'],
    ]) {
      const r = await runCli([...argv, '--mock', '--dry-run'], { now: NOW });
      expect(r.code, `${argv.join(' ')}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/2026-11-(19|20)/);
    }
  });

  it('a form it does not know is exit 2 with the forms in the hint', async () => {
    const r = await runCli(['search', '--mock', '--published-at-start', '-3y'], { now: NOW });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: --published-at-start must be a date');
    expect(r.stderr).toMatch(/hint: .*-24h.*today/);
  });
});

describe('the query language', () => {
  it('takes no relative date, and the hint says where they go', async () => {
    const r = await runCli(['query', 'check', 'published_at:>yesterday AND title:rates']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[ER0703]');
    expect(r.stderr).toContain('hint: relative dates are for the flags');
  });
});

describe('--state keeps the relative form', () => {
  let mock: MockServer;
  let dir: string;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, quiet: true, now: NOW });
    dir = mkdtempSync(join(tmpdir(), 'news-relative-'));
  });
  afterAll(() => mock.close());

  it('the same cron line a quarter of an hour later is the same query', async () => {
    const state = join(dir, 'state.json');
    const line = (out: string) => [
      'search',
      '--base-url',
      mock.url,
      '--api-key',
      'api_live_mock_pro',
      '--published-at-start',
      '-24h',
      '--state',
      state,
      '-o',
      join(dir, out),
    ];
    const first = await runCli(line('a.jsonl'), { now: NOW });
    expect(first.code, first.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(state, 'utf8')) as {
      query: { params: Record<string, unknown> };
    };
    expect(saved.query.params['published_at.start']).toBe('-24h');
    const later = new Date(NOW.getTime() + 15 * 60_000);
    const second = await runCli(line('b.jsonl'), { now: later });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('differs');
    // An absolute date is another query.
    const absolute = line('c.jsonl');
    absolute[absolute.indexOf('-24h')] = '2026-11-19T12:34:56Z';
    const third = await runCli(absolute, { now: NOW });
    expect(third.code).toBe(2);
    expect(third.stderr).toContain('the query differs');
  });
});
