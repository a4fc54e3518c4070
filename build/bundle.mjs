#!/usr/bin/env node
/**
 * Build step after tsc: bundles the CLI into dist/bundle/ (docs/COMPLETION.md,
 * "Start-up": start-up is module loading and compiling more than running).
 *
 * - pass 1 (here): the whole CLI as ES modules, split where import() is used,
 *   in memory;
 * - pass 2 (bundle-core.mjs): start.cjs, what every start runs (commander, the
 *   program, the command specs, the parameter table), and lazy.cjs, what
 *   commands import later (the client, output writers, the mock), as scripts
 *   that bin/news.js compiles with a V8 code cache (src/cli/boot/code-cache.ts;
 *   an ES module cannot use one on Node 20); the files that import a package
 *   stay ES modules (chunk-*.js), loaded only when used;
 * - start.cache and lazy.cache: the code caches, made by running a few
 *   commands (train-code-cache.mjs);
 * - convert-worker.js: news convert's worker threads; pg-copy-worker.js: the
 *   one of `news convert FILE -o postgres://…`;
 * - boot.cjs, complete.cjs and help.cjs: src/cli/boot/code-cache.ts,
 *   src/cli/completion/fast.ts and src/cli/help/fast.ts, which bin/news.js
 *   requires.
 *
 * Modules find files beside them through import.meta.url (package.json, the
 * fixtures, the worker threads' script): each module's import.meta.url is
 * rewritten to its original place under dist/, relative to the bundle, so
 * those paths hold wherever the package is installed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildScripts } from './bundle-core.mjs';
import { lazySchemas } from './lazy-schemas.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'dist', 'bundle');

const keepMetaUrl = {
  name: 'original-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      // Chunks and scripts land in outdir itself, so the path is relative to outdir.
      const rel = relative(outdir, args.path).split('\\').join('/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(rel)}, import.meta.url).href`,
        ),
        loader: 'js',
      };
    });
  },
};

// Dependencies stay in node_modules (loaded lazily; some ship native or wasm
// parts), but commander, which every start loads: bundled, it is one module of
// start.cjs instead of five CommonJS files read, lexed and wrapped (~3 ms).
// The MCP SDK too (server and core), with all it imports (ajv aside, below), in the chunks only
// `news mcp` loads: ~90 modules read one by one made its first answer ~2×
// slower (bench/mcp-startup.mjs). The project's own `zod` stays outside: its
// `z` namespace would pull the whole of zod into the SDK's chunk, which
// otherwise holds only the parts the SDK uses.
const BUNDLED = /^(?:commander|@modelcontextprotocol\/(?:server|core))(?:\/|$)/;
const dependenciesOutside = {
  name: 'dependencies-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED.test(args.path) ||
      args.path.startsWith('node:') ||
      // what a bundled package imports is bundled with it
      /[\\/]node_modules[\\/]/.test(args.importer)
        ? undefined
        : { external: true },
    );
  },
};

// The SDK's Server makes an ajv validator when it is constructed (through
// the package's `_shims` entry), for the answers to elicitation requests,
// which `news mcp` never sends: ajv (~150 KB, a tenth of the time to the
// first answer) loads on first use instead, from the SDK's own package.
const lazyAjv = {
  name: 'lazy-ajv',
  setup(b) {
    // Loaded by require() when first used, from node_modules.
    b.onResolve({ filter: /^@modelcontextprotocol\/server\/validators\/ajv$/ }, (args) => ({
      path: args.path,
      external: true,
    }));
    b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, (args) => ({
      path: args.path,
      namespace: 'lazy-ajv',
    }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-ajv' }, () => ({
      loader: 'js',
      contents: `import process from 'node:process';
      export { process };
      export class DefaultJsonSchemaValidator {
        getValidator(schema) {
          this.real ??= new (require('@modelcontextprotocol/server/validators/ajv').AjvJsonSchemaValidator)();
          return this.real.getValidator(schema);
        }
      }`,
    }));
  },
};

// The SDK's zod schemas are built on first use (build/lazy-schemas.mjs): its
// modules defined ~300 at load and its wire layer ~140 per era on the first
// validation, ~30 ms of `news mcp`'s first answer, which needs a few dozen.

// commander requires node:child_process (for executable subcommands, which
// news has none of) at load; that module pulls in net and dgram (~2 ms).
// It is required on first use instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'commander')}`)
        ? { path: 'lazy-child-process', namespace: 'news-lazy' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'news-lazy' }, () => ({
      contents: "module.exports=new Proxy({},{get:(_,k)=>require('node:child_process')[k]});",
      loader: 'js',
    }));
  },
};

/** Pass 1: the whole CLI as ES modules, split where import() is used; in memory. */
async function splitBuild() {
  const result = await build({
    entryPoints: { main: join(root, 'dist/cli/main.js') },
    outdir,
    write: false,
    metafile: true,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minifySyntax: true,
    minifyWhitespace: true,
    chunkNames: 'chunk-[hash]',
    plugins: [lazySchemas, keepMetaUrl, lazyAjv, dependenciesOutside, lazyChildProcess],
    logLevel: 'warning',
  });
  const files = new Map(result.outputFiles.map((f) => [f.path, f.text]));
  const outputs = new Map(
    Object.entries(result.metafile.outputs).map(([path, meta]) => [join(root, path), meta]),
  );
  return { files, outputs };
}

/** Modules imported with import() that start.cjs holds all the same (see classify). */
const EAGER = ['dist/api/index.js', 'dist/output/columns.js'];

/** The files `from` imports statically, transitively, itself included. */
function staticClosure(outputs, from) {
  const closure = new Set();
  const todo = [from];
  while (todo.length > 0) {
    const path = todo.pop();
    if (closure.has(path)) continue;
    closure.add(path);
    for (const imp of outputs.get(path).imports)
      if (imp.kind === 'import-statement' && !imp.external) todo.push(join(root, imp.path));
  }
  return closure;
}

/** Whether `path` or what it imports statically imports a package (not node:). */
function importsPackage(outputs, path) {
  return [...staticClosure(outputs, path)].some((p) =>
    outputs
      .get(p)
      .imports.some(
        (imp) => imp.kind === 'import-statement' && imp.external && !imp.path.startsWith('node:'),
      ),
  );
}

/**
 * Splits pass 1's outputs (build/bundle-core.mjs): `start`, what every start
 * loads (main.js and its static imports); `lazy`, what commands import later;
 * `esm`, what imports a package statically and so stays an ES module (a
 * package loaded by require() could be a second copy of one loaded by import()).
 */
function classify(outputs) {
  const start = staticClosure(outputs, join(outdir, 'main.js'));
  // Every command that sends a request loads the client, --dry-run too (it
  // describes the request with it): in start.cjs, such a start compiles no
  // second script. It is small (~30 KB with what it imports).
  for (const [path, meta] of outputs)
    if (EAGER.some((input) => meta.entryPoint === input || input in meta.inputs))
      for (const file of staticClosure(outputs, path)) start.add(file);
  for (const path of start)
    if (importsPackage(outputs, path))
      throw new Error(
        `every start would load a package (through ${Object.keys(outputs.get(path).inputs).join(', ')}): import() it where it is used (docs/COMPLETION.md, "Start-up")`,
      );
  const esm = new Set();
  const lazy = new Set();
  for (const path of outputs.keys()) {
    if (start.has(path) || !path.endsWith('.js')) continue;
    (importsPackage(outputs, path) ? esm : lazy).add(path);
  }
  // Files imported from another part: start.cjs exports them, or proxies stand in for them.
  const importedBy = (from) =>
    [...from].flatMap((path) =>
      outputs
        .get(path)
        .imports.filter((imp) => !imp.external)
        .map((imp) => join(root, imp.path)),
    );
  const fromLater = new Set(importedBy([...lazy, ...esm]));
  const fromEsm = new Set(importedBy(esm));
  return {
    start,
    lazy,
    esm,
    exportsOf: (path) => (fromLater.has(path) ? outputs.get(path).exports : []),
    fromEsm,
  };
}

const { files, outputs } = await splitBuild();
const parts = classify(outputs);
const scripts = await buildScripts(outdir, files, parts, parts.fromEsm);
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
// Bundled CommonJS calls require('node:events') and the like (esbuild's
// __require): the scripts get a require from the loader, an ES module its own.
const REQUIRE =
  "import{createRequire as __news_cr}from'node:module';const require=__news_cr(import.meta.url);\n";
for (const path of parts.esm) {
  const text = files.get(path);
  writeFileSync(path, text.includes('__require') ? REQUIRE + text : text);
}
for (const [path, text] of scripts.proxies) writeFileSync(path, text);
// The first line names the build: a code cache made for other bytes is never used.
const id = createHash('sha256')
  .update(scripts.start)
  .update(scripts.lazy)
  .digest('hex')
  .slice(0, 16);
writeFileSync(join(outdir, 'start.cjs'), `//news-core ${id}\n${scripts.start}`);
writeFileSync(join(outdir, 'lazy.cjs'), `//news-core ${id}\n${scripts.lazy}`);

// news convert's worker threads (src/output/parallel/): one file with the
// libraries it uses (hyparquet-writer, hysnappy), for each worker starts afresh
// and loading ~50 modules one by one took ~50 ms of it. The pool uses it when
// it is there.
await build({
  entryPoints: {
    'convert-worker': join(root, 'dist/output/parallel/worker.js'),
    'pg-copy-worker': join(root, 'dist/output/destinations/postgres/copy-worker.js'),
  },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  logLevel: 'warning',
});

// What bin/news.js requires, each as one CommonJS file: the loader of the
// scripts (src/cli/boot/code-cache.ts), the Tab path (completion/fast.ts) and
// `news COMMAND --help` (help/fast.ts).
// bin/news.js is CommonJS (bin/package.json): an ES module costs ~10 ms more
// to start (Node's module loader).
await build({
  entryPoints: {
    boot: join(root, 'dist/cli/boot/code-cache.js'),
    complete: join(root, 'dist/cli/completion/fast.js'),
    help: join(root, 'dist/cli/help/fast.js'),
  },
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  plugins: [keepMetaUrl],
  define: { 'import.meta.url': '__news_boot_url' },
  banner: { js: "const __news_boot_url=require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});

// The code cache, made in a process of its own with no NODE_OPTIONS, as a user's start has.
const env = { ...process.env };
delete env.NODE_OPTIONS;
const trained = spawnSync(process.execPath, [join(root, 'build', 'train-code-cache.mjs')], {
  env,
  stdio: 'inherit',
});
if (trained.status !== 0) throw new Error('build/train-code-cache.mjs failed');
console.log(
  `bundled ${relative(root, outdir)}: start.cjs (${parts.start.size} files), lazy.cjs (${parts.lazy.size}), their code caches, ${parts.esm.size} ES modules, ${scripts.proxies.size} proxies, convert-worker.js, pg-copy-worker.js, boot.cjs, complete.cjs, help.cjs`,
);
