#!/usr/bin/env node
/**
 * Build step after tsc: bundles the CLI that dist/cli/main.js starts into
 * dist/bundle/ (ESM, code-split, so modules imported with import() stay
 * separate chunks, loaded only when a command needs them). Start-up is module
 * loading more than running (docs/COMPLETION.md, "Start-up"): one file instead of ~90 saves
 * most of it. bin/news.js uses the bundle when it is there, dist/cli otherwise.
 *
 * Modules find files beside them through import.meta.url (package.json, the
 * fixtures, the worker threads' script): each module's import.meta.url is
 * rewritten to its original place under dist/, relative to the bundle, so
 * those paths hold wherever the package is installed.
 */
import { readFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bundle`;

const keepMetaUrl = {
  name: 'original-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      // Chunks land in outdir itself, so the path is relative to outdir.
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
// the chunk instead of five CommonJS files read, lexed and wrapped (~3 ms).
// The MCP SDK too, with all it imports (zod, ajv, …), in the chunks only
// `news mcp` loads: ~90 modules read one by one made its first answer ~2×
// slower (bench/mcp-startup.mjs). The project's own `zod` stays outside: its
// `z` namespace would pull the whole of zod into the SDK's chunk, which
// otherwise holds only the parts the SDK uses.
const BUNDLED = /^(?:commander|@modelcontextprotocol\/sdk)(?:\/|$)/;
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

// The SDK's Server makes an ajv validator when it is constructed, for the
// answers to elicitation requests, which `news mcp` never sends: ajv (~150 KB,
// a tenth of the time to the first answer) loads on first use instead, from
// the SDK's own package.
const lazyAjv = {
  name: 'lazy-ajv',
  setup(b) {
    // Loaded by require() when first used, from node_modules.
    b.onResolve({ filter: /^@modelcontextprotocol\/sdk\/validation\/ajv$/ }, (args) => ({
      path: args.path,
      external: true,
    }));
    b.onResolve({ filter: /[\\/]ajv-provider\.js$/ }, (args) =>
      /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'lazy-ajv' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-ajv' }, () => ({
      loader: 'js',
      contents: `export class AjvJsonSchemaValidator {
        getValidator(schema) {
          this.real ??= new (require('@modelcontextprotocol/sdk/validation/ajv').AjvJsonSchemaValidator)();
          return this.real.getValidator(schema);
        }
      }`,
    }));
  },
};

await build({
  entryPoints: { main: `${root}dist/cli/main.js` },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  chunkNames: 'chunk-[hash]',
  plugins: [keepMetaUrl, lazyAjv, dependenciesOutside],
  // commander is CommonJS and requires node:events and the like.
  banner: {
    js: "import{createRequire as __news_cr}from'node:module';const require=__news_cr(import.meta.url);",
  },
  logLevel: 'warning',
});
// news convert's worker threads (src/output/parallel/): one file with the
// libraries it uses (hyparquet-writer, hysnappy), for each worker starts afresh
// and loading ~50 modules one by one took ~50 ms of it. The pool uses it when
// it is there.
await build({
  entryPoints: { 'convert-worker': `${root}dist/output/parallel/worker.js` },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  logLevel: 'warning',
});
console.log(
  `bundled ${relative(root, dirname(`${outdir}/main.js`))}/main.js and convert-worker.js`,
);
