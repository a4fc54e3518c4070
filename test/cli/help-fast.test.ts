/**
 * `news COMMAND… --help` answered by bin/news.js from the help models written
 * at build time (src/cli/help/fast.ts) prints, byte for byte, what commander's
 * path prints, for every command, at every width; anything else, or no model,
 * takes commander's path. The built bin is spawned, as a user runs it, once
 * per command; the other widths run the same built code (dist/bundle/help.cjs,
 * what the bin requires) in this process: a spawn costs ~0.1 s of CPU.
 */
import {
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docsProgram } from '../../src/cli/help/docs.js';
import { helpModels } from '../../src/cli/help/format.js';
import { helpWidth } from '../../src/cli/help/width.js';
import { HELP_CONTEXT } from '../../src/cli/program.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';
import { BIN, runToEnd } from '../helpers/spawn.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const MODELS = join(ROOT, 'dist', 'cli', 'help', 'model');
const home = scratchDir('help-fast-home-');

/** A clean environment: no COLUMNS, colour or NEWS_ variable of the developer's. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    NEWS_NO_COMPLETION_CACHE: '1',
    ...extra,
  };
}

const news = (bin: string, argv: readonly string[], extra?: Record<string, string>) =>
  runToEnd(process.execPath, [bin, ...argv], env(extra));

/** `fn` over `items`, `size` at a time: the machine is shared. */
async function pooled<T, R>(items: readonly T[], size: number, fn: (t: T) => Promise<R>) {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: size }, worker));
  return out;
}

/** Every command path of the registry, hidden ones too; `news --help`'s is []. */
const PATHS = helpModels(docsProgram(), HELP_CONTEXT).map(([path]) => path);

const WIDTHS = [40, 80, 132] as const;

/**
 * What the fast path prints for argv at COLUMNS=width, from the bundle
 * bin/news.js requires (dist/bundle/help.cjs), run in this process on a
 * stdout that is no terminal; undefined when it leaves argv to commander.
 */
function fastText(argv: readonly string[], width: number): string | undefined {
  const { helpText } = require(join(ROOT, 'dist', 'bundle', 'help.cjs')) as {
    helpText(argv: readonly string[]): string | undefined;
  };
  const columns = process.env['COLUMNS'];
  const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  process.env['COLUMNS'] = String(width);
  Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true });
  try {
    return helpText(argv);
  } finally {
    if (columns === undefined) delete process.env['COLUMNS'];
    else process.env['COLUMNS'] = columns;
    if (tty === undefined) delete (process.stdout as { isTTY?: boolean }).isTTY;
    else Object.defineProperty(process.stdout, 'isTTY', tty);
  }
}

describe('the fast path prints what commander prints', () => {
  it('for every command and subcommand, at widths 40, 80 and 132: same bytes, stream and exit code', async () => {
    expect(PATHS.length).toBeGreaterThan(40);
    const results = await pooled(PATHS, 2, async (path) => {
      const index = PATHS.indexOf(path);
      // Each command spawned at one width, the three in turn: every width is
      // read from COLUMNS by the binary for a third of the commands.
      const spawnedAt = WIDTHS[index % WIDTHS.length]!;
      const argv = [...path, index % 2 === 0 ? '-h' : '--help'];
      const slow = new Map<number, Awaited<ReturnType<typeof runCli>>>();
      for (const width of WIDTHS)
        slow.set(width, await runCli(argv, { env: { COLUMNS: String(width) } }));
      const spawned = await news(BIN, argv, { COLUMNS: String(spawnedAt) });
      return { argv, slow, spawned, spawnedAt };
    });
    for (const { argv, slow, spawned, spawnedAt } of results) {
      for (const width of WIDTHS) {
        const what = `news ${argv.join(' ')} at ${width}`;
        const commander = slow.get(width)!;
        expect(commander.code, what).toBe(0);
        expect(commander.stderr, what).toBe('');
        expect(fastText(argv, width), what).toBe(commander.stdout);
      }
      const what = `news ${argv.join(' ')} at ${spawnedAt}, spawned`;
      expect(spawned.stdout, what).toBe(slow.get(spawnedAt)!.stdout);
      expect(spawned.stderr, what).toBe('');
      expect(spawned.code, what).toBe(0);
    }
  }, 180_000);

  it('has a model for every command path, and for nothing else', () => {
    const files = PATHS.map((path) => `${['news', ...path].join('.')}.json`);
    expect(readdirSync(MODELS).sort()).toEqual(files.sort());
  });

  it('wraps to the terminal when stdout is one, else to COLUMNS, else 80 (one function for both paths)', () => {
    expect(helpWidth({ isTTY: true, columns: 100 }, { COLUMNS: '60' })).toBe(100);
    expect(helpWidth({ isTTY: false }, { COLUMNS: '60' })).toBe(60);
    expect(helpWidth({}, {})).toBe(80);
    expect(helpWidth({}, { COLUMNS: 'wide' })).toBe(80);
    expect(helpWidth({}, { COLUMNS: '0' })).toBe(80);
  });
});

describe('drift: the help models in dist/ follow the code', () => {
  it('each model file equals the model of the live program', () => {
    for (const [path, model] of helpModels(docsProgram(), HELP_CONTEXT)) {
      const file = join(MODELS, `${['news', ...path].join('.')}.json`);
      expect(JSON.parse(readFileSync(file, 'utf8')), `${file} is stale: npm run build`).toEqual(
        model,
      );
    }
  });

  it('help.cjs, which bin/news.js requires, loads no package (commander, zod): node: modules only', () => {
    const text = readFileSync(join(ROOT, 'dist', 'bundle', 'help.cjs'), 'utf8');
    const required = [...text.matchAll(/require\(["'`]([^"'`]+)["'`]\)/g)].map((m) => m[1]);
    expect(required.length).toBeGreaterThan(0);
    for (const name of required) expect(name).toMatch(/^node:/);
    expect(text.length).toBeLessThan(20_000);
  });
});

/**
 * A copy of the package (bin, package.json, dist; node_modules and the
 * fixtures linked) whose models are marked, so a test sees which path answered.
 */
function packageCopy(change: (dist: string) => void): string {
  const dir = scratchDir('help-fast-package-');
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const dist = join(dir, 'dist');
  mkdirSync(dist);
  for (const entry of readdirSync(join(ROOT, 'dist'))) {
    if (entry.startsWith('bundle-test-')) continue; // code-cache.test.ts's copies
    if (entry === 'fixtures') symlinkSync(join(ROOT, 'dist', entry), join(dist, entry));
    else cpSync(join(ROOT, 'dist', entry), join(dist, entry), { recursive: true });
  }
  change(dist);
  return join(dir, 'bin', 'news.js');
}

const modelsOf = (dist: string) => join(dist, 'cli', 'help', 'model');

/** Every model's usage line starts with FAST: only the fast path prints that. */
function markModels(dist: string): void {
  for (const file of readdirSync(modelsOf(dist))) {
    const path = join(modelsOf(dist), file);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('{"line":"Usage: ', '{"line":"FAST Usage: '));
  }
}

describe('which path answers', () => {
  it('command names then one -h or --help: the model; any other argv: commander', async () => {
    const bin = packageCopy(markModels);
    for (const argv of [['--help'], ['-h'], ['search', '--help'], ['webhooks', 'list', '-h']]) {
      const r = await news(bin, argv);
      expect(r.stdout.startsWith('FAST Usage: news'), argv.join(' ')).toBe(true);
      expect(r.code).toBe(0);
    }
    const others = [
      ['search', '--title', 'x', '--help'],
      ['--mock', 'search', '--help'],
      ['help', 'search'],
      ['search', '--help', '--help'],
      ['Search', '--help'],
      ['serch', '--help'],
      ['people', 'musk', '--help'],
      ['webhooks', 'list', 'extra', '--help'],
      ['../cli/help/model/news', '--help'],
    ];
    for (const argv of others) {
      const [copy, slow] = [await news(bin, argv), await runCli(argv)];
      expect(copy.stdout, argv.join(' ')).not.toContain('FAST');
      expect({ ...copy }, argv.join(' ')).toEqual({ ...slow });
    }
  }, 60_000);

  it('no model, or no help.cjs (a tree built without them): commander answers the same', async () => {
    const noModels = packageCopy((dist) => rmSync(modelsOf(dist), { recursive: true }));
    const noScript = packageCopy((dist) => rmSync(join(dist, 'bundle', 'help.cjs')));
    const fast = await news(BIN, ['search', '--help']);
    for (const bin of [noModels, noScript]) {
      const r = await news(bin, ['search', '--help']);
      expect({ ...r }).toEqual({ ...fast });
    }
  }, 60_000);

  it('the colour variables and a config file change nothing on either path', async () => {
    // commander strips colour codes when the output has no colours; the models hold none
    // (write-model.ts refuses one), so both paths print the same in every case.
    const commander = packageCopy((dist) => rmSync(join(dist, 'bundle', 'help.cjs')));
    const config = join(home, 'config', 'news');
    mkdirSync(config, { recursive: true });
    writeFileSync(
      join(config, 'config.json'),
      JSON.stringify({ current: 'work', profiles: { work: { format: 'csv', 'api-key': 'k' } } }),
    );
    for (const extra of [
      { NO_COLOR: '1' },
      { FORCE_COLOR: '1' },
      { CLICOLOR_FORCE: '1', COLUMNS: '50' },
      { NEWS_PROFILE: 'work', NEWS_API_KEY: 'secret' },
    ]) {
      const [fast, slow] = [
        await news(BIN, ['search', '--help'], extra),
        await news(commander, ['search', '--help'], extra),
      ];
      expect(fast.stdout, JSON.stringify(extra)).toBe(slow.stdout);
      expect(fast.code).toBe(slow.code);
    }
    rmSync(join(config, 'config.json'));
  }, 60_000);
});
