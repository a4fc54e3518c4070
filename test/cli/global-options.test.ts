/**
 * The global options per command (src/cli/settings/global-options.ts): each command
 * takes, shows and completes only the ones it uses, refuses the others
 * (exit 2, naming the flag), and commands that send nothing never read the
 * network settings, so an empty or bad variable cannot stop them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS, REQUEST } from '../../src/cli/settings/global-options.js';
import { isolatedConfigHome, runCli } from '../helpers/cli.js';

/** Every flag spelled in `text` that is one of the global options' long names. */
function globalFlagsIn(text: string): string[] {
  return GLOBAL_OPTIONS.map((o) => /--[\w-]+/.exec(o.flags)?.[0] ?? '').filter((flag) =>
    new RegExp(`(^|\\s)${flag}(\\s|,|$)`, 'm').test(text),
  );
}

describe('help shows a command only the global options it uses', () => {
  it('convert: the output options, no --dry-run, --mock or key', async () => {
    const r = await runCli(['convert', '--help']);
    expect(r.code).toBe(0);
    const flags = globalFlagsIn(r.stdout);
    expect(flags).toEqual(
      expect.arrayContaining(['--format', '--output', '--fields', '--no-sanitize']),
    );
    for (const absent of ['--dry-run', '--mock', '--api-key', '--base-url', '--timeout'])
      expect(flags, absent).not.toContain(absent);
  });

  it('mock serve: none of -f, -o, --fields, --dry-run, --mock', async () => {
    const r = await runCli(['mock', 'serve', '--help']);
    expect(r.code).toBe(0);
    expect(globalFlagsIn(r.stdout).sort()).toEqual(['--quiet', '--verbose']);
    expect(r.stdout).not.toMatch(/(^|\s)-f,|(^|\s)-o,/m);
  });

  it('count prints a number, or with -f/-o a record: the request and the output options', async () => {
    const r = await runCli(['count', '--help']);
    const flags = globalFlagsIn(r.stdout);
    expect(flags).toContain('--dry-run');
    expect(flags).toContain('--mock');
    expect(flags).toContain('--format');
    expect(flags).toContain('--output');
  });

  it('search: every global option', async () => {
    const r = await runCli(['search', '--help']);
    expect(globalFlagsIn(r.stdout).sort()).toEqual(
      GLOBAL_OPTIONS.map((o) => /--[\w-]+/.exec(o.flags)?.[0] ?? '').sort(),
    );
  });

  it('completion offers the same: convert gets -o, not --mock', async () => {
    const r = await runCli(['__complete', 'convert', '--']);
    const offered = r.stdout.split('\n').map((l) => l.split('\t')[0]);
    expect(offered).toContain('--output');
    expect(offered).not.toContain('--mock');
    expect(offered).not.toContain('--dry-run');
    const serve = await runCli(['__complete', 'mock', 'serve', '--']);
    expect(serve.stdout).not.toMatch(/^--(fields|format|output|dry-run|mock)\b/m);
    // A parent's flags are not its subcommand's: stream's filters after `stream sessions`.
    const sessions = await runCli(['__complete', 'stream', 'sessions', '--lang']);
    expect(sessions.stdout.trim()).toBe(':4');
  });
});

describe('an option a command does not use is an error naming it', () => {
  it.each([
    [['convert', '--mock', 'x.jsonl'], '--mock does nothing for news convert'],
    [['--mock', 'convert', 'x.jsonl'], '--mock does nothing for news convert'],
    [['convert', '--dry-run', 'x.jsonl'], '--dry-run does nothing for news convert'],
    [['mock', 'serve', '-o', 'x.json'], '-o does nothing for news mock serve'],
    [['mock', 'serve', '--fields', 'id'], '--fields does nothing for news mock serve'],
    [['webhooks', 'verify', '-f', 'json'], '-f does nothing for news webhooks verify'],
    [['query', 'check', 'rates', '--api-key', 'k'], '--api-key does nothing for news query check'],
    [
      ['completion', 'bash', '--base-url', 'http://x'],
      '--base-url does nothing for news completion',
    ],
    // A filter flag after a subcommand that does not take it, and before it.
    [
      ['stream', 'sessions', '--mock', '--language-code', 'en'],
      '--language-code does nothing for news stream sessions',
    ],
    [
      ['stream', '--language-code', 'en', 'sessions', '--mock'],
      '--language-code does nothing for news stream sessions',
    ],
    [
      ['people', '--per-page', '5', 'get', '10001', '--mock'],
      '--per-page does nothing for news people get',
    ],
  ])('news %j', async (argv, message) => {
    const r = await runCli(argv);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`error: ${message}`);
    expect(r.stderr).toMatch(/hint: see news [\w -]+ --help/);
    expect(r.stdout).toBe('');
  });

  it('a global option before the command counts when the command takes it', async () => {
    const r = await runCli(['--mock', '--fields', 'id', 'search', '--limit', '1', '-f', 'jsonl']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['id']);
    // --no-sanitize given before the command is not undone by the command's own default.
    const csv = await runCli(
      ['--no-sanitize', 'convert', '-f', 'csv', '--fields', 'title', '--kind', 'generic'],
      { stdin: '{"title":"=1+1"}\n' },
    );
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toContain('=1+1');
    expect(csv.stdout).not.toContain("'=1+1");
  });

  it('the request options stay on every command that sends requests', () => {
    expect(REQUEST).toEqual(
      expect.arrayContaining(['api-key', 'base-url', 'auth', 'mock', 'dry-run']),
    );
  });
});

describe('settings: an empty variable is unset; offline commands never read the network ones', () => {
  const offline: readonly string[][] = [
    ['query', 'check', 'title:rates'],
    ['completion', 'bash'],
    ['help', 'search'],
    ['config', 'path'],
  ];

  it.each(offline)('news %s runs with every network variable empty or wrong', async (...argv) => {
    for (const env of [
      { NEWS_API_BASE_URL: '', NEWS_API_KEY: '', NEWS_PROFILE: '', NEWS_API_MOCK: '' },
      { NEWS_API_BASE_URL: 'not a url', NEWS_API_KEY: 'bad\u0007key' },
    ]) {
      const r = await runCli(argv, { env });
      expect(r.code, `${JSON.stringify(env)}\n${r.stderr}`).toBe(0);
      expect(r.stderr).not.toMatch(/^error:/m);
    }
  });

  it('convert and webhooks verify run with a wrong base URL in the environment and the profile', async () => {
    const home = isolatedConfigHome();
    mkdirSync(join(home, 'news'), { recursive: true });
    writeFileSync(
      join(home, 'news', 'config.json'),
      JSON.stringify({ profiles: { default: { 'base-url': 'nope', auth: 'smoke' } } }),
    );
    const env = { XDG_CONFIG_HOME: home, NEWS_API_BASE_URL: 'nope' };
    const convert = await runCli(['convert', '-f', 'csv', '--kind', 'generic'], {
      env,
      stdin: '{"a":1}\n',
    });
    expect(convert.code, convert.stderr).toBe(0);
    expect(convert.stdout).toBe('a\r\n1\r\n');
    const verify = await runCli(
      [
        'webhooks',
        'verify',
        '--secret',
        's',
        '--timestamp',
        '1',
        '--signature',
        'sha256=00',
        '--tolerance',
        '0',
      ],
      { env, stdin: '{}' },
    );
    // Checked and found invalid (exit 1): not stopped by the settings (exit 2).
    expect(verify.code, verify.stderr).toBe(1);
    // A command that sends requests still names the bad profile value.
    const search = await runCli(['search', '--dry-run'], { env: { XDG_CONFIG_HOME: home } });
    expect(search.code).toBe(2);
    expect(search.stderr).toContain('key "base-url"');
  });

  it('an empty variable counts as unset for commands that send requests too', async () => {
    const r = await runCli(['search', '--dry-run', '--api-key', 'k123'], {
      env: { NEWS_API_BASE_URL: '', NEWS_PROFILE: '', NEWS_MAX_RESPONSE_MB: '' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('https://api.apitube.io/v1/news/everything');
    const empty = await runCli(['search', '--dry-run'], {
      env: { NEWS_API_KEY: '', NEWS_API_MOCK: '' },
    });
    expect(empty.code).toBe(0);
    expect(empty.stdout).not.toContain('127.0.0.1');
  });
});

describe("--dry-run's curl line and where the key came from", () => {
  it('a key from the config file gets a note that $NEWS_API_KEY must be set; from the environment, none', async () => {
    const home = isolatedConfigHome();
    const set = await runCli(['config', 'set', 'api-key', 'api_live_configured'], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(set.code, set.stderr).toBe(0);
    const fromFile = await runCli(['search', '--dry-run'], { env: { XDG_CONFIG_HOME: home } });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toContain('"$NEWS_API_KEY"');
    expect(fromFile.stderr).toMatch(
      /^note: the curl line reads \$NEWS_API_KEY, .*profile "default" of the config file .*set NEWS_API_KEY/m,
    );
    expect(`${fromFile.stdout}${fromFile.stderr}`).not.toContain('api_live_configured');
    const fromFlag = await runCli(['search', '--dry-run', '--api-key', 'api_live_typed']);
    expect(fromFlag.stderr).toContain('(--api-key)');
    const fromEnv = await runCli(['search', '--dry-run'], {
      env: { XDG_CONFIG_HOME: home, NEWS_API_KEY: 'api_live_env' },
    });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stderr).not.toContain('curl line');
  });
});
