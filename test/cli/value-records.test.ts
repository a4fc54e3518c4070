/**
 * "-f on every command that prints data": `count` and `ping` print
 * their value, and with -f or -o one record (CommandSpec `valueUnlessAsked`),
 * so a cron line can log a count per hour; each command takes only the
 * formats it writes (CommandSpec `formats`), in help and completion too.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedConfigHome, runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const KEY = 'api_live_mock_pro';
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('news count', () => {
  it('prints the bare number without -f and -o, even when the profile sets a format', async () => {
    const home = isolatedConfigHome();
    mkdirSync(join(home, 'news'));
    writeFileSync(
      join(home, 'news', 'config.json'),
      JSON.stringify({ profiles: { default: { format: 'jsonl' } } }),
    );
    const r = await runCli(['count', '--mock', '--title', 'bitcoin'], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+\n$/);
    // On a terminal too.
    const tty = await runCli(['count', '--mock'], { tty: 80 });
    expect(tty.stdout).toMatch(/^\d+\n$/);
  });

  it('two runs appended (`-f jsonl >> counts.jsonl`) are two lines: the count, as_of and the filters, never the key', async () => {
    const log = join(scratchDir('counts-'), 'counts.jsonl');
    const argv = ['count', '--mock', '--api-key', KEY, '--title', 'bitcoin', '-f', 'jsonl'];
    for (const now of ['2026-11-20T10:00:00.000Z', '2026-11-20T11:00:00.000Z']) {
      const r = await runCli(argv, { now: new Date(now) });
      expect(r.code, r.stderr).toBe(0);
      appendFileSync(log, r.stdout);
    }
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain(KEY);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r['as_of'])).toEqual([
      '2026-11-20T10:00:00.000Z',
      '2026-11-20T11:00:00.000Z',
    ]);
    for (const record of records) {
      expect(Object.keys(record)).toEqual(['count', 'as_of', 'filters']);
      expect(typeof record['count']).toBe('number');
      expect(record['filters']).toEqual({ title: 'bitcoin' });
    }
  });

  it('the filters are those sent: API names, relative dates resolved', async () => {
    const now = new Date('2026-11-20T12:00:00Z');
    const r = await runCli(
      ['count', '--mock', '--language-code', 'en', '--published-at-start', '-24h', '-f', 'json'],
      { now },
    );
    expect(r.code, r.stderr).toBe(0);
    const record = JSON.parse(r.stdout) as { as_of: string; filters: Record<string, unknown> };
    expect(record.as_of).toMatch(ISO_UTC);
    expect(record.filters).toEqual({
      'language.code': 'en',
      'published_at.start': '2026-11-19T12:00:00Z',
    });
  });

  it('-o FILE writes the record as every export does, the format from the extension', async () => {
    const dir = scratchDir('count-out-');
    const r = await runCli(['count', '--mock', '--title', 'bitcoin', '-o', join(dir, 'n.csv')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('wrote 1 record to');
    const [header, row, ...rest] = readFileSync(join(dir, 'n.csv'), 'utf8').trimEnd().split('\r\n');
    expect(header).toBe('count,as_of,filters.title');
    expect(row).toMatch(/^\d+,\d{4}-.*Z,bitcoin$/);
    expect(rest).toEqual([]);
  });

  it('refuses a format it does not write (one count is no feed), before sending', async () => {
    for (const argv of [
      ['count', '--mock', '-f', 'rss'],
      ['count', '--mock', '-o', join(scratchDir('count-rss-'), 'n.rss')],
    ]) {
      const r = await runCli(argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('error: news count does not write rss');
      expect(r.stderr).toContain('hint: -f takes json, jsonl, ndjson, csv, tsv, xml, xlsx');
      expect(r.stderr).not.toContain('using the built-in mock');
    }
  });
});

describe('news ping', () => {
  it('prints pong; with -f, one record: the answer, as_of and the time it took', async () => {
    const bare = await runCli(['ping', '--mock']);
    expect(bare.stdout).toBe('pong\n');
    const now = new Date('2026-11-20T12:00:00Z');
    const r = await runCli(['ping', '--mock', '-f', 'json'], { now });
    expect(r.code, r.stderr).toBe(0);
    const record = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(record).toMatchObject({ answer: 'pong', as_of: '2026-11-20T12:00:00.000Z' });
    expect(typeof record['elapsed_ms']).toBe('number');
  });
});

describe('the formats a command takes, in one place', () => {
  it('completion and help offer count, ping and balance only the formats they write', async () => {
    for (const command of ['count', 'ping', 'balance']) {
      const offered = (await runCli(['__complete', command, '-f', ''])).stdout.split('\n');
      expect(offered).toContain('jsonl');
      expect(offered).not.toContain('rss');
      const help = await runCli([command, '--help']);
      expect(help.stdout).toMatch(/json\|jsonl\|ndjson\|csv\|tsv\|xml\|xlsx\|parquet\|table/);
    }
    const search = (await runCli(['__complete', 'search', '-f', ''])).stdout.split('\n');
    expect(search).toContain('rss');
    const balance = await runCli(['balance', '--mock', '-f', 'rss']);
    expect(balance.code).toBe(2);
    expect(balance.stderr).toContain('error: news balance does not write rss');
  });

  it('commands whose result is not data still refuse -f, naming it', async () => {
    for (const [argv, path] of [
      [['completion', 'bash', '-f', 'json'], 'news completion'],
      [['query', 'check', 'rates', '-f', 'json'], 'news query check'],
      [['mock', 'serve', '-f', 'json'], 'news mock serve'],
    ] as const) {
      const r = await runCli(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: -f does nothing for ${path}`);
    }
  });
});
