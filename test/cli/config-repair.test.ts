import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedConfigHome, runCli } from '../helpers/cli.js';

function withFile(content: unknown): { env: Record<string, string>; path: string } {
  const home = isolatedConfigHome();
  mkdirSync(join(home, 'news'));
  const path = join(home, 'news', 'config.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return { env: { XDG_CONFIG_HOME: home }, path };
}

describe('config values are checked with the rule of their flag', () => {
  it.each([
    ['format', 'yaml', /format must be one of json, jsonl/],
    ['timeout', 'abc', /timeout must be a number of seconds from 0.001 to 2147483/],
    ['retries', '1.5', /retries must be a whole number of at least 0/],
    ['auth', 'cookie', /auth must be one of header, bearer, query/],
    ['base-url', 'not a url', /base-url must be an absolute URL/],
  ])('config set %s %s is refused and writes nothing', async (key, value, rule) => {
    const home = isolatedConfigHome();
    const r = await runCli(['config', 'set', key, value], { env: { XDG_CONFIG_HOME: home } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(rule);
    expect(r.stderr).toContain('nothing was written');
    expect(() => readFileSync(join(home, 'news', 'config.json'))).toThrow();
  });

  it('a bad value already in the file names the file and the key, not a flag', async () => {
    const { env, path } = withFile({ profiles: { default: { format: 'yaml' } } });
    const r = await runCli(['search', '--mock'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: the config file ${path}: profile "default", key "format"`);
    expect(r.stderr).not.toContain('--format');
    expect(r.stderr).toMatch(/hint: fix it with `news config set format VALUE`/);
  });

  it('a bad value in another profile does not stop this one', async () => {
    const { env } = withFile({
      profiles: { default: { format: 'jsonl' }, work: { timeout: 'abc' } },
    });
    const r = await runCli(['search', '--mock', '--limit', '1'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('numbers written by hand are accepted for timeout and retries', async () => {
    const { env } = withFile({ profiles: { default: { timeout: 30, retries: 2 } } });
    const r = await runCli(['config', 'get', 'timeout'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('30\n');
  });
});

describe('config can always repair the file', () => {
  it('list, get, unset and set work on a file with bad values', async () => {
    const { env, path } = withFile({
      profiles: { default: { format: 'yaml', timeout: 'abc', 'api-key': 'api_live_x1234567890' } },
    });
    const list = await runCli(['config', 'list'], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('[default] (current)');
    expect(list.stderr).toContain(
      `warning: the config file ${path}: profile "default", key "format"`,
    );
    const unset = await runCli(['config', 'unset', 'format'], { env });
    expect(unset.code).toBe(0);
    const set = await runCli(['config', 'set', 'timeout', '20'], { env });
    expect(set.code).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      profiles: { default: { 'api-key': 'api_live_x1234567890', timeout: '20' } },
    });
    const after = await runCli(['search', '--mock', '--limit', '1', '-f', 'jsonl'], { env });
    expect(after.code).toBe(0);
  });

  it('a file that is not JSON: config path works, config set moves it aside and starts afresh', async () => {
    const { env, path } = withFile('{not json');
    const broken = await runCli(['balance', '--mock'], { env });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`error: the config file ${path} is not valid JSON`);
    expect(broken.stderr).toContain('news config path');
    const where = await runCli(['config', 'path'], { env });
    expect(where.code).toBe(0);
    expect(where.stdout).toBe(`${path}\n`);
    const set = await runCli(['config', 'set', 'format', 'csv'], { env });
    expect(set.code).toBe(0);
    expect(set.stderr).toMatch(/moved it to .*config\.json\.broken-/);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      profiles: { default: { format: 'csv' } },
    });
  });

  it('config get on a file that is not JSON says the file could not be read, and where it is', async () => {
    const { env, path } = withFile('{not json');
    const r = await runCli(['config', 'get', 'api-key'], { env });
    expect(r.code).toBe(2);
    // One line, the error: not a warning about the file and then "not set".
    expect(r.stderr).toBe(
      `error: cannot read "api-key" of profile "default": the config file ${path} is not valid JSON\n` +
        'hint: fix or delete the file; `news config path` prints where it is\n',
    );
  });

  it('config get of a bad value names the value, not "not set"', async () => {
    const { env, path } = withFile({ profiles: { default: { format: 'yaml', retries: 'x' } } });
    const r = await runCli(['config', 'get', 'format'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: cannot read "format" of profile "default": the config file ${path}: profile "default", key "format" must be one of`,
        'm',
      ),
    );
    expect(r.stderr).toMatch(/^hint: fix it with `news config set format VALUE`/m);
    // The other bad value is still said, as a warning.
    expect(r.stderr).toMatch(/^warning: .*key "retries"/m);
    expect(r.stderr).not.toMatch(/is not set/);
  });

  it('config get of a value that is not there says so, with the file', async () => {
    const { env, path } = withFile({ profiles: { default: { format: 'csv' } } });
    const r = await runCli(['config', 'get', 'timeout'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: "timeout" is not set in profile "default" (${path})\n`);
  });

  it('unset removes a setting and says when it was not set', async () => {
    const { env, path } = withFile({ profiles: { default: { format: 'csv', retries: '1' } } });
    const r = await runCli(['config', 'unset', 'format'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default).toEqual({ retries: '1' });
    const again = await runCli(['config', 'unset', 'format'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('"format" was not set');
    const typo = await runCli(['config', 'unset', 'formt'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean format?');
  });

  it('an unknown setting in the file is a warning naming it, not a failure', async () => {
    const { env } = withFile({ profiles: { default: { formt: 'csv' } } });
    const r = await runCli(['search', '--mock', '--limit', '1', '-f', 'jsonl'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: the config file .*key "formt" is not a setting, ignored \(did you mean format\?\)/,
    );
  });

  it('config path honours XDG_CONFIG_HOME', async () => {
    const r = await runCli(['config', 'path'], { env: { XDG_CONFIG_HOME: '/x/y' } });
    expect(r.stdout).toBe('/x/y/news/config.json\n');
  });
});

describe('precedence of the output format', () => {
  it('the -o extension beats the profile format; -f beats both', async () => {
    const { env } = withFile({ profiles: { default: { format: 'json' } } });
    const dir = isolatedConfigHome();
    const csv = join(dir, 'r.csv');
    const r = await runCli(['search', '--mock', '--limit', '2', '--fields', 'id', '-o', csv], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(csv, 'utf8').split('\r\n')[0]).toBe('id');
    // Without -o the profile's format applies.
    const plain = await runCli(['search', '--mock', '--limit', '1', '--fields', 'id'], { env });
    expect(JSON.parse(plain.stdout)).toHaveLength(1);
    const forced = join(dir, 'f.csv');
    await runCli(
      ['search', '--mock', '--limit', '1', '--fields', 'id', '-f', 'jsonl', '-o', forced],
      {
        env,
      },
    );
    expect(JSON.parse(readFileSync(forced, 'utf8'))).toHaveProperty('id');
  });
});
