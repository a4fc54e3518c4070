/**
 * The start-up code caches (src/cli/boot/code-cache.ts) are a speed-up only:
 * a damaged, truncated, stale or foreign cache, a cache V8 rejects, a cache
 * folder that cannot be written, or none at all, and the CLI still runs and
 * prints the same. Each test starts the CLI in a process of its own (V8 and
 * the scripts are per process) from a copy of dist/bundle/ beside the real one
 * (the scripts find package.json and the fixtures relative to it), the copy
 * damaged as the test needs.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCache } from '../../src/cli/boot/code-cache.js';
import { scratchDir } from '../helpers/scratch.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const RUNNER = fileURLToPath(new URL('../helpers/code-cache-runner.mjs', import.meta.url));
const copies: string[] = [];

/** A fresh copy of the built bundle, beside it in dist/. */
function bundleCopy(): string {
  const dir = mkdtempSync(join(DIST, 'bundle-test-'));
  cpSync(join(DIST, 'bundle'), dir, { recursive: true });
  copies.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  caches: Record<string, string>;
  /** The runner's fingerprint (code-cache.ts): what a cache it would use was made under. */
  print: string;
}

function start(dir: string, argv: readonly string[], env: Record<string, string> = {}) {
  return new Promise<Run>((resolve) => {
    const child = spawn(process.execPath, [RUNNER, dir, ...argv], {
      env: { ...process.env, NEWS_NO_COMPLETION_CACHE: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('close', (code) => {
      const caches = /^caches (\{.*\})$/m.exec(stderr)?.[1];
      const print = /^fingerprint (".*")$/m.exec(stderr)?.[1];
      resolve({
        code,
        stdout,
        stderr,
        caches: caches ? JSON.parse(caches) : {},
        print: print ? JSON.parse(print) : '',
      });
    });
  });
}

/** `count --mock`: both scripts (the client and the mock are in lazy.cjs). */
const COUNT = ['count', '--mock', '--title', 'rate cut'];
let expected: string;
let print: string;
let cacheHome: string;

beforeAll(async () => {
  cacheHome = scratchDir('code-cache-home-');
  const plain = await start(bundleCopy(), COUNT, { XDG_CACHE_HOME: cacheHome });
  expect(plain.code, plain.stderr).toBe(0);
  expect(plain.caches).toEqual({ start: 'built', lazy: 'built' });
  expected = plain.stdout;
  print = plain.print;
  expect(expected).toMatch(/^\d+\n$/);
}, 60_000);

const userCaches = (home: string) =>
  existsSync(join(home, 'news', 'v8')) ? readdirSync(join(home, 'news', 'v8')) : [];

describe('the code cache is a speed-up only', () => {
  it('the build’s caches are used, and nothing is written to the user’s folder', () => {
    expect(userCaches(cacheHome)).toEqual([]);
  });

  it('damaged caches (bytes flipped, as V8 would trust them) are not used; the next start uses the user’s', async () => {
    const dir = bundleCopy();
    for (const part of ['start', 'lazy']) {
      const file = join(dir, `${part}.cache`);
      const bytes = readFileSync(file);
      for (let i = bytes.length >> 1; i < bytes.length; i += 997) bytes[i] = bytes[i]! ^ 0x5a;
      writeFileSync(file, bytes);
    }
    const home = scratchDir('code-cache-home-');
    const first = await start(dir, COUNT, { XDG_CACHE_HOME: home });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(expected);
    expect(first.caches).toEqual({ start: 'none', lazy: 'none' });
    expect(userCaches(home)).toHaveLength(2);
    const second = await start(dir, COUNT, { XDG_CACHE_HOME: home });
    expect(second.stdout).toBe(expected);
    expect(second.caches).toEqual({ start: 'user', lazy: 'user' });
  }, 60_000);

  it('truncated, empty, stale (another build) or rejected by V8: not used', async () => {
    const dir = bundleCopy();
    truncateSync(join(dir, 'start.cache'), 1000);
    writeFileSync(join(dir, 'lazy.cache'), '');
    const home = scratchDir('code-cache-home-');
    const r = await start(dir, COUNT, { XDG_CACHE_HOME: home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
    expect(r.caches).toEqual({ start: 'none', lazy: 'none' });

    const stale = bundleCopy();
    const build = /^\/\/news-core (\w+)/.exec(readFileSync(join(stale, 'start.cjs'), 'utf8'))![1]!;
    const data = readFileSync(join(stale, 'start.cache'));
    writeFileSync(join(stale, 'start.cache'), encodeCache(data, 'another-build', print));
    // Whole and of this build, but not V8's: it rejects it (and says so; nothing crashes).
    writeFileSync(join(stale, 'lazy.cache'), encodeCache(Buffer.alloc(4096, 7), build, print));
    const s = await start(stale, COUNT, { XDG_CACHE_HOME: scratchDir('code-cache-home-') });
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toBe(expected);
    expect(s.caches).toEqual({ start: 'none', lazy: 'none' });
  }, 60_000);

  it('other Node options (another fingerprint): the build’s caches are left alone, the user gets their own', async () => {
    const dir = bundleCopy();
    const home = scratchDir('code-cache-home-');
    const env = { XDG_CACHE_HOME: home, NODE_OPTIONS: '--no-warnings' };
    const first = await start(dir, COUNT, env);
    expect(first.stdout).toBe(expected);
    expect(first.caches).toEqual({ start: 'none', lazy: 'none' });
    const second = await start(dir, COUNT, env);
    expect(second.caches).toEqual({ start: 'user', lazy: 'user' });
    // Without the option, the build's again.
    const plain = await start(dir, COUNT, { XDG_CACHE_HOME: home });
    expect(plain.caches).toEqual({ start: 'built', lazy: 'built' });
  }, 60_000);

  it('a cache folder that cannot be written, or NEWS_NO_CODE_CACHE=1: runs all the same', async () => {
    const dir = bundleCopy();
    writeFileSync(join(dir, 'start.cache'), 'x');
    const blocked = join(scratchDir('code-cache-home-'), 'a-file');
    writeFileSync(blocked, '');
    const r = await start(dir, COUNT, { XDG_CACHE_HOME: blocked });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
    expect(r.stderr).not.toMatch(/error|warning/i);

    const home = scratchDir('code-cache-home-');
    const off = await start(bundleCopy(), COUNT, { XDG_CACHE_HOME: home, NEWS_NO_CODE_CACHE: '1' });
    expect(off.stdout).toBe(expected);
    expect(off.caches).toEqual({ start: 'none', lazy: 'none' });
    expect(userCaches(home)).toEqual([]);
  }, 60_000);

  it('the ES module chunks (a package import: the table writer) share the scripts’ modules', async () => {
    const r = await start(bundleCopy(), ['search', '--mock', '--limit', '2', '-f', 'table'], {
      XDG_CACHE_HOME: scratchDir('code-cache-home-'),
      COLUMNS: '100',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
  }, 60_000);

  it('a folder without the bundle: nothing is loaded (bin/news.js falls back to dist/cli)', async () => {
    const r = await start(scratchDir('no-bundle-'), ['--help']);
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('no start.cjs');
  });
});
