/**
 * What the user types: every value below used to be sent (or to
 * fail as a network error); now each is refused before sending, exit 2, or
 * made usable (a key's surrounding whitespace).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiKeyProblem } from '../../src/api/api-key.js';
import { parseDateValue } from '../../src/params/values.js';
import { SEARCH_PARAMS } from '../../src/params/search-params.js';
import { checkValue } from '../../src/params/values.js';
import { isolatedConfigHome, runCli } from '../helpers/cli.js';
import { TEST_KEY, apiFlags, useRecordingServer } from '../helpers/recording-server.js';

const server = useRecordingServer();
const search = (...argv: string[]) => runCli(['search', ...argv, ...apiFlags(server)]);

describe('--timeout', () => {
  it('refuses what no timer can honour, before sending (exit 2)', async () => {
    for (const bad of ['99999999999', '0', '0.0001', '-1', 'abc', 'Infinity', '1e400']) {
      const r = await search('--timeout', bad, '--title', 'rates');
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(
        /^error: --timeout must be a number of seconds from 0\.001 to 2147483 \(got/m,
      );
      expect(r.stderr).not.toMatch(/TimeoutOverflowWarning/);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('rounds a fraction to the millisecond and works', async () => {
    const r = await search('--timeout', '1.2345', '--title', 'rates');
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    const max = await search('--timeout', '2147483', '--title', 'rates');
    expect(max.code, max.stderr).toBe(0);
  });
});

describe('dates', () => {
  it('impossible calendar dates and times are NaN', () => {
    for (const bad of [
      '2026-02-30',
      '2026-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-01-01T24:00',
      '2026-01-01T23:60:00Z',
      '2026-01-01T23:59:60Z',
      '2026-01-01T10:00:00+24:00',
      '2026-02-30T10:00:00Z',
    ]) {
      expect(parseDateValue(bad), bad).toBeNaN();
    }
    expect(parseDateValue('2028-02-29')).toBe(Date.UTC(2028, 1, 29));
    expect(parseDateValue('2026-01-01T23:59:59+05:30')).toBe(Date.UTC(2026, 0, 1, 18, 29, 59));
  });

  it('are refused before sending in every flag and in --query', async () => {
    for (const flag of ['--published-at', '--published-at-start', '--published-at-end']) {
      const r = await search(flag, '2026-02-30');
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toMatch(/must be a date/);
    }
    const q = await search('--query', 'published_at:[2026-02-30 TO 2026-03-05]');
    expect(q.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});

describe('empty list values', () => {
  it('are refused: "," and "us,,fr" and a trailing comma', async () => {
    for (const [flag, value] of [
      ['--language-code', ','],
      ['--source-country-code', 'us,,fr'],
      ['--source-country-code', 'us,'],
      ['--event-type', ' , layoffs'],
    ] as const) {
      const r = await search(flag, value);
      expect(r.code, `${flag} ${value}`).toBe(2);
      expect(r.stderr).toMatch(/must not hold an empty value/);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('wildcards in flat filters', () => {
  it('--source-domain "*.com" is refused: the service would drop the filter', async () => {
    const r = await search('--source-domain', '*.com');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/wildcard/);
    expect(server.requests).toHaveLength(0);
  });

  // Free text the service reads as text, never as a filter it could drop.
  const NOT_FILTERS = new Set([
    'query',
    'prompt',
    'search',
    'title_pattern',
    'hl.tag.pre',
    'hl.tag.post',
    'fl',
  ]);
  it('every free-text flat filter of the parameter table refuses * and ?', () => {
    const open = SEARCH_PARAMS.filter(
      (d) =>
        d.type === 'string' &&
        !NOT_FILTERS.has(d.name) &&
        !d.name.startsWith('facet.') &&
        d.name !== 'location.bbox' &&
        checkValue(d, 'ab*').ok,
    ).map((d) => d.name);
    expect(open).toEqual([]);
  });
});

describe('the API key', () => {
  it('trims surrounding whitespace (a pasted line end) and works', async () => {
    const r = await runCli(
      ['search', '--title', 'rates', ...apiFlags(server).slice(0, 2), '--retries', '0'],
      {
        env: { NEWS_API_KEY: `  ${TEST_KEY}\r\n` },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests[0]?.headers['x-api-key']).toBe(TEST_KEY);
  });

  it('refuses inner control and non-header characters as a key problem: exit 2, nothing sent, no retry', async () => {
    for (const key of [
      `${TEST_KEY}\r\nX`,
      `api_live_a\u0007b`,
      'api_live_é_key',
      'api_live_two words',
    ]) {
      const r = await runCli([
        'search',
        '--title',
        'rates',
        '--base-url',
        server.url,
        '--api-key',
        key,
      ]);
      expect(r.code, JSON.stringify(key)).toBe(2);
      expect(r.stderr).toMatch(/^error: the API key contains /m);
      expect(r.stderr).toMatch(/^hint: /m);
      expect(r.stderr).not.toContain('api_live_');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('names the problem without quoting the key', () => {
    expect(apiKeyProblem('abc\rdef')).toBe('a line break (U+000D) at character 4 of 7');
    expect(apiKeyProblem('abc\u0000')).toBe('a control character (U+0000) at character 4 of 4');
    expect(apiKeyProblem('abc€')).toMatch(/cannot go in an HTTP header \(U\+20AC\)/);
    expect(apiKeyProblem('api_live_ok-Key.1~')).toBeUndefined();
  });

  it('config set api-key trims and refuses the same way', async () => {
    const home = isolatedConfigHome();
    const bad = await runCli(['config', 'set', 'api-key', 'api_live_x\u0001y'], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: the API key contains a control character \(U\+0001\)/m);
    const ok = await runCli(['config', 'set', 'api-key', `${TEST_KEY}\n`], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(ok.code).toBe(0);
    const saved = JSON.parse(readFileSync(join(home, 'news', 'config.json'), 'utf8')) as {
      profiles: Record<string, Record<string, string>>;
    };
    expect(saved.profiles['default']?.['api-key']).toBe(TEST_KEY);
  });
});

describe('-o a directory', () => {
  it('says it is a directory (not that the name has no extension)', async () => {
    const dir = isolatedConfigHome();
    // Format guessed from the name: checked before the mock starts, so no note first.
    const guessed = await runCli(['search', '--mock', '-o', dir]);
    expect(guessed.stderr).toBe(
      `error: cannot write ${dir}: it is a directory\nhint: name a file inside it, e.g. -o DIR/out.csv\n`,
    );
    for (const extra of [[], ['-f', 'json']]) {
      const r = await runCli(['search', '--mock', '-o', dir, ...extra]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: cannot write ${dir}: it is a directory$`, 'm'));
      expect(r.stderr).not.toContain('cannot tell the format');
    }
    const noExtension = await runCli(['search', '--mock', '-o', `${dir}/out`]);
    expect(noExtension.stderr).toBe(
      `error: cannot tell the format from the file name "${dir}/out"\nhint: name the format with -f, e.g. -f csv\n`,
    );
  });

  it('on the export paths that spool or stage (--all -o, --state): before the lock, the state and the mock', async () => {
    const dir = isolatedConfigHome();
    for (const extra of [
      ['--all'],
      ['--all', '-f', 'json'],
      ['--state', `${dir}/s.json`, '-f', 'csv'],
    ]) {
      const r = await runCli(['search', '--mock', '-o', dir, ...extra]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `error: cannot write ${dir}: it is a directory\nhint: name a file inside it, e.g. -o DIR/out.csv\n`,
      );
    }
    expect(existsSync(`${dir}/s.json`)).toBe(false);
    const noExtension = await runCli(['search', '--mock', '--all', '-o', `${dir}/out`]);
    expect(noExtension.code).toBe(2);
    expect(noExtension.stderr).toMatch(/^error: cannot tell the format from the file name/);
  });
});
