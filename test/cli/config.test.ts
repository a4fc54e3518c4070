import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedConfigHome, runCli } from '../helpers/cli.js';
import { RecordingServer } from '../helpers/recording-server.js';

let server: RecordingServer;
beforeAll(async () => {
  server = await new RecordingServer().start();
});
afterAll(() => server.stop());

describe('news config', () => {
  it('writes profiles to $XDG_CONFIG_HOME/news/config.json with mode 0600, and never prints the key', async () => {
    const home = isolatedConfigHome();
    const env = { XDG_CONFIG_HOME: home };
    const set = await runCli(['config', 'set', 'api-key', 'api_live_abcdefgh12345678'], { env });
    expect(set.code).toBe(0);
    expect(set.stderr).not.toContain('abcdefgh');
    await runCli(['config', 'set', 'base-url', 'http://example.test', '--profile', 'work'], {
      env,
    });
    const path = join(home, 'news', 'config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      profiles: {
        default: { 'api-key': 'api_live_abcdefgh12345678' },
        work: { 'base-url': 'http://example.test' },
      },
    });
    const get = await runCli(['config', 'get', 'api-key'], { env });
    expect(get.stdout).toBe('api_live_****5678\n');
    const list = await runCli(['config', 'list'], { env });
    expect(list.stdout).toContain('[default] (current)');
    expect(list.stdout).toContain('[work]');
    expect(list.stdout).not.toContain('abcdefgh');
  });

  it('refuses an unknown setting', async () => {
    const r = await runCli(['config', 'set', 'colour', 'red']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown setting "colour"\nhint: settings: api-key/);
  });

  it('precedence: flag > environment > config file', async () => {
    const home = isolatedConfigHome();
    await runCli(['config', 'set', 'api-key', 'api_live_from_config'], {
      env: { XDG_CONFIG_HOME: home },
    });
    await runCli(['config', 'set', 'base-url', server.url], { env: { XDG_CONFIG_HOME: home } });
    const keyOf = async (args: string[], extraEnv: Record<string, string> = {}) => {
      server.requests.length = 0;
      const r = await runCli(['search', '-f', 'json', ...args], {
        env: { XDG_CONFIG_HOME: home, ...extraEnv },
      });
      expect(r.code).toBe(0);
      return server.requests[0]?.headers['x-api-key'];
    };
    expect(await keyOf([])).toBe('api_live_from_config');
    expect(await keyOf([], { NEWS_API_KEY: 'api_live_from_env' })).toBe('api_live_from_env');
    expect(
      await keyOf(['--api-key', 'api_live_from_flag'], { NEWS_API_KEY: 'api_live_from_env' }),
    ).toBe('api_live_from_flag');
  });

  it('a named profile that does not exist is an error when a request needs it', async () => {
    const r = await runCli(['search', '--profile', 'nope', '--base-url', server.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: no profile named "nope"/);
  });

  it('a broken config file is one clear error', async () => {
    const home = isolatedConfigHome();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(home, 'news'));
    writeFileSync(join(home, 'news', 'config.json'), '{not json');
    const r = await runCli(['balance'], { env: { XDG_CONFIG_HOME: home } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: the config file .* is not valid JSON\nhint:/);
  });
});

describe('the README names every setting', () => {
  it('its "Settings:" line lists CONFIG_KEYS, in order', async () => {
    const { CONFIG_KEYS } = await import('../../src/cli/settings/checks.js');
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    const line = /^Settings: (.*)\.$/m.exec(readme)?.[1];
    expect(line?.split(', ').map((k) => k.replaceAll('`', ''))).toEqual([...CONFIG_KEYS]);
  });
});
