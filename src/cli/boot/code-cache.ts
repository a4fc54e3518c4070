/**
 * Starts the bundled CLI (dist/bundle/start.cjs and lazy.cjs, built by
 * build/bundle.mjs) from V8 code caches: compiling is most of what a start
 * costs beyond Node's own, and an ES module cannot use a code cache on Node 20
 * (docs/COMPLETION.md, "Start-up").
 *
 * A cache is a speed-up only; whatever happens to it, the CLI runs:
 * - the build writes start.cache and lazy.cache beside the scripts, for the
 *   Node that built them;
 * - another Node, other options (`--cpu-prof`, NODE_OPTIONS), or a cache V8
 *   rejects: one is made after the run under the user's cache folder
 *   ($XDG_CACHE_HOME/news/v8/), best effort (a read-only home only costs speed);
 * - each cache names the build and the Node that made it, and carries a
 *   checksum: a stale, truncated or damaged file is never handed to V8 (which
 *   trusts its input: a damaged cache can crash it);
 * - NEWS_NO_CODE_CACHE=1 reads and writes none.
 */
import {
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { newsCacheDir } from '../user-dirs.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where the ES module chunks of the bundle find the scripts' exports (build/bundle-core.mjs). */
export const CORE_KEY = Symbol.for('news-search-cli.core');

const MAGIC = 'news-code-cache 2\n';
/** Per-user caches kept (two per build and Node); older ones are removed. */
const KEEP = 6;

/** What a cache must have been made under to be used: the Node and the options V8 saw. */
export function fingerprint(env: Env): string {
  return [process.version, process.arch, ...process.execArgv, env['NODE_OPTIONS'] ?? ''].join(' ');
}

/** zlib's crc32 (Node 20.15+): catches damage, and is ~0.2 ms here where node:crypto would load ~20 modules. */
const checksum = (data: string | Uint8Array) => crc32(data).toString(16);

/** A cache file: a header line naming the build, the fingerprint and the checksum, then V8's bytes. */
export function encodeCache(data: Uint8Array, build: string, print: string): Buffer {
  const header = JSON.stringify({ build, fingerprint: print, crc32: checksum(data) });
  return Buffer.concat([Buffer.from(`${MAGIC}${header}\n`), data]);
}

/** V8's bytes, when `file` is a whole cache of this build made under this fingerprint. */
export function decodeCache(file: Buffer, build: string, print: string): Buffer | undefined {
  if (!file.subarray(0, MAGIC.length).equals(Buffer.from(MAGIC))) return undefined;
  const end = file.indexOf(10, MAGIC.length);
  if (end === -1) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(file.subarray(MAGIC.length, end).toString('utf8'));
  } catch {
    return undefined;
  }
  const { build: b, fingerprint: f, crc32: sum } = (header ?? {}) as Record<string, unknown>;
  const data = file.subarray(end + 1);
  return b === build && f === print && sum === checksum(data) ? data : undefined;
}

function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Writes `data` to `path` whole or not at all; false when it could not. */
function writeAtomically(path: string, data: Uint8Array): boolean {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, path);
    return true;
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // never written
    }
    return false;
  }
}

/** Removes all but the newest KEEP caches of `dir`. */
function prune(dir: string): void {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cache'))
    .map((f) => ({ path: join(dir, f), time: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const { path } of files.slice(KEEP)) unlinkSync(path);
}

/** The two scripts of the bundle (build/bundle-core.mjs). */
export type Part = 'start' | 'lazy';

export interface CoreFiles {
  /** dist/bundle/: the scripts and the caches the build made. */
  readonly dir: string;
  /** The folder of per-user caches (none when there is no home to put it in). */
  readonly userCaches: string | undefined;
}

/** dist/bundle/, from dist/cli/boot/. */
const BUNDLE_DIR = fileURLToPath(new URL('../../bundle/', import.meta.url));

export function coreFiles(env: Env, dir = BUNDLE_DIR): CoreFiles {
  let userCaches: string | undefined;
  try {
    userCaches = join(newsCacheDir(env), 'v8');
  } catch {
    // No HOME and no passwd entry (os.homedir() throws): the build's caches only.
  }
  return { dir, userCaches };
}

export const scriptFile = (files: CoreFiles, part: Part) => join(files.dir, `${part}.cjs`);
export const builtCacheFile = (files: CoreFiles, part: Part) => join(files.dir, `${part}.cache`);

export interface Compiled {
  readonly script: Script;
  /** Which cache V8 used: the build's, the user's, or none (missing, stale, rejected, disabled). */
  readonly cache: 'built' | 'user' | 'none';
}

export interface LoadedCore {
  /** start.cjs's exports: main and run. */
  readonly exports: Record<string, unknown>;
  readonly build: string;
  /** The scripts compiled so far (lazy.cjs on the first import of one of its files). */
  readonly compiled: ReadonlyMap<Part, Compiled>;
  /** After a run: writes the user's cache of each script compiled without one. Never throws. */
  save(): void;
}

/**
 * A script as a function of what a CommonJS module gets, the URL its paths
 * are relative to, its import() (build/bundle-core.mjs rewrites the calls),
 * and the other script.
 */
const wrap = (source: string) =>
  `(function (exports, require, module, __news_meta_url, __news_import, __news_lazy, __news_start) {${source}\n})`;

type ScriptFunction = (...args: unknown[]) => void;

const buildOf = (source: string) => /^\/\/news-core (\w+)\n/.exec(source)?.[1] ?? '';

/**
 * Compiles and runs start.cjs (undefined when the build made none); lazy.cjs
 * when a command first imports one of its files. start.cjs's exports and the
 * lazy loader are also published under CORE_KEY for the ES module chunks.
 */
export function loadCore(files: CoreFiles, env: Env): LoadedCore | undefined {
  let startSource: string;
  // The build writes the scripts in ASCII: latin1 reads them as they are, with no UTF-8 decoding.
  try {
    startSource = readFileSync(scriptFile(files, 'start'), 'latin1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const build = buildOf(startSource);
  const disabled = env['NEWS_NO_CODE_CACHE'] === '1' || build === '';
  const print = fingerprint(env);
  const userFile = (part: Part) =>
    files.userCaches === undefined
      ? undefined
      : join(files.userCaches, `${part}-${build}-${checksum(print)}.cache`);
  const compiled = new Map<Part, Compiled>();

  function compile(part: Part, source: string): ScriptFunction {
    let cache: Compiled['cache'] = 'none';
    let cachedData: Buffer | undefined;
    if (!disabled) {
      cachedData = decodeFile(builtCacheFile(files, part), build, print);
      if (cachedData !== undefined) cache = 'built';
      else {
        cachedData = decodeFile(userFile(part), build, print);
        if (cachedData !== undefined) cache = 'user';
      }
    }
    const script = new Script(wrap(source), {
      filename: scriptFile(files, part),
      ...(cachedData === undefined ? {} : { cachedData }),
    });
    if (script.cachedDataRejected === true) cache = 'none';
    compiled.set(part, { script, cache });
    return script.runInThisContext() as ScriptFunction;
  }

  const url = pathToFileURL(scriptFile(files, 'start')).href;
  const require = createRequire(scriptFile(files, 'start'));
  // The ES module chunks beside the scripts, and packages (found from here as from there).
  const importer = (specifier: string) =>
    import(specifier.startsWith('.') ? new URL(specifier, url).href : specifier);
  const start = { exports: {} as Record<string, unknown> };
  let loaders: Record<string, () => Promise<unknown>> | undefined;
  function loadLazy(specifier: string): Promise<unknown> {
    if (loaders === undefined) {
      const source = readFileSync(scriptFile(files, 'lazy'), 'latin1');
      if (buildOf(source) !== build)
        throw new Error('dist/bundle holds parts of two builds: run npm run build');
      const lazy = { exports: {} as Record<string, unknown> };
      compile('lazy', source)(
        lazy.exports,
        require,
        lazy,
        url,
        importer,
        lazyImport,
        start.exports,
      );
      loaders = lazy.exports['loaders'] as typeof loaders;
    }
    const load = loaders?.[specifier];
    if (load === undefined) throw new Error(`lazy.cjs has no ${specifier}`);
    return load();
  }
  // As import() does: a failure is a rejected promise.
  const lazyImport = (specifier: string) =>
    new Promise<unknown>((resolve) => resolve(loadLazy(specifier)));

  compile('start', startSource)(
    start.exports,
    require,
    start,
    url,
    importer,
    lazyImport,
    undefined,
  );
  (globalThis as Record<symbol, unknown>)[CORE_KEY] = { start: start.exports, lazy: lazyImport };
  return {
    exports: start.exports,
    build,
    compiled,
    save() {
      const dir = files.userCaches;
      if (disabled || dir === undefined) return;
      for (const [part, { script, cache }] of compiled) {
        const file = userFile(part);
        if (cache !== 'none' || file === undefined) continue;
        try {
          const data = encodeCache(script.createCachedData(), build, print);
          mkdirSync(dir, { recursive: true });
          if (writeAtomically(file, data)) prune(dir);
        } catch {
          // A read-only or full disk: the next start compiles again.
        }
      }
    },
  };
}

function decodeFile(path: string | undefined, build: string, print: string): Buffer | undefined {
  const file = path === undefined ? undefined : readIfThere(path);
  return file === undefined ? undefined : decodeCache(file, build, print);
}
