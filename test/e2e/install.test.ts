/**
 * The first install, as a new user meets it (README, "Quick start"): the
 * package has a name that can be published (the command stays `news`), a
 * clean install warns about no dependency's install script (npm 11's
 * allowScripts covers esbuild's), and `npm link` puts `news` on the PATH.
 * A real `npm ci` from a fresh clone is too slow for the suite; these check
 * the same decisions with npm itself, offline.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/cli/version.js';

const run = promisify(execFile);
/** npm's cache and logs in a temporary folder: the suite writes nothing outside the repo and tmp. */
const npmHome = mkdtempSync(join(tmpdir(), 'news-npm-'));
const npmEnv = { ...process.env, npm_config_cache: join(npmHome, 'cache') };
afterAll(() => rmSync(npmHome, { recursive: true, force: true }));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  name: string;
  packages: Record<string, { name?: string }>;
};

/** npm 11 has `npm install-scripts`; npm 10 (Node 20's own) runs every install script and warns about none. */
const hasInstallScripts =
  spawnSync('npm', ['help', 'install-scripts'], { encoding: 'utf8', cwd: ROOT, env: npmEnv })
    .status === 0;

describe('the package', () => {
  it('is named news-search-cli (news is taken on npm) and installs the command news', () => {
    expect(pkg.name).toBe('news-search-cli');
    expect(Object.keys(pkg.bin)).toEqual(['news']);
    expect(lock.name).toBe(pkg.name);
    expect(lock.packages['']?.name).toBe(pkg.name);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm install -g news-search-cli');
    expect(readme).not.toMatch(/npm (install|i) (-g )?news(\s|$)/m);
  });

  it.skipIf(!hasInstallScripts)(
    'leaves no dependency install script unreviewed, without allowing them all',
    async () => {
      const { stdout, stderr } = await run('npm', ['install-scripts', 'ls'], {
        cwd: ROOT,
        env: npmEnv,
      });
      expect(`${stdout}${stderr}`).toContain('No packages with unreviewed install scripts');
      expect(stderr).not.toMatch(/warn/i);
      // One reviewed entry per package that has a script: no blanket approval.
      expect(pkg.allowScripts).toEqual({ esbuild: true });
    },
  );

  it('`npm link` puts news on the PATH of a prefix, and it runs, as the README says', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm link --ignore-scripts');
    const prefix = mkdtempSync(join(tmpdir(), 'news-prefix-'));
    try {
      const linked = await run('npm', ['link', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: ROOT,
        env: { ...npmEnv, npm_config_prefix: prefix },
      });
      expect(linked.stderr).not.toMatch(/warn/i);
      const { stdout } = await run(join(prefix, 'bin', 'news'), ['--version']);
      expect(stdout.trim()).toBe(VERSION);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  }, 60_000);
});
