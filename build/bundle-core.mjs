/**
 * Pass 2 of build/bundle.mjs: pass 1's ES module outputs (in memory) become
 * two CommonJS-shaped scripts, which src/cli/boot/code-cache.ts compiles with
 * a V8 code cache, and proxies for the ES modules that stay.
 *
 * - start.cjs: what every start runs (main.js and its static imports). It
 *   exports main and run, and `shared`: under prefixed names, what the other
 *   parts import.
 * - lazy.cjs: what commands import later (`lazy` files), compiled on the first
 *   import() of one of them; each file initialised when first imported. It
 *   reads the start files' exports off start.cjs.
 * - the `esm` files stay ES modules (they import packages statically); each
 *   file of the scripts they import is replaced by a proxy re-exporting it.
 *
 * Each script is a function body of (exports, require, module,
 * __news_meta_url, __news_import, __news_lazy, __news_start): its import()
 * calls are rewritten to __news_import (another file, or a package) and
 * __news_lazy (a lazy file): V8 runs a script's own import() only through an
 * experimental vm API on Node 20, which says so on stderr.
 */
import { basename, join } from 'node:path';
import { build } from 'esbuild';

/** The name under which start.cjs exports file `index`'s export `name`. */
const startName = (index, name) => `s${index}_${name}`;

/** The pass-one file that `./chunk-X.js` names, or undefined. */
const chunkPath = (outdir, spec) =>
  /^\.\/[\w-]+\.js$/.test(spec) ? join(outdir, spec.slice(2)) : undefined;

const COMMON = {
  write: false,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  // The loader passes the scripts' URL (the chunks' folder, so the rewritten paths hold).
  define: { 'import.meta.url': '__news_meta_url' },
  metafile: true,
  logLevel: 'warning',
};

/**
 * Resolves pass one's relative imports: a file of this script from memory, a
 * file of the start script (imported by lazy.cjs) as a module reading
 * __news_start, anything else external. Packages and node: modules stay external.
 */
function fromPassOne(outdir, files, parts, script, startIndex) {
  return {
    name: 'pass-one-outputs',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
      b.onResolve({ filter: /^\.\// }, (args) => {
        const path = chunkPath(outdir, args.path);
        if (path !== undefined && parts[script].has(path)) return { path, namespace: 'pass-one' };
        if (path !== undefined && script === 'lazy' && parts.start.has(path))
          return { path, namespace: 'start-exports' };
        return { path: args.path, external: true };
      });
      b.onLoad({ filter: /.*/, namespace: 'pass-one' }, (args) => ({
        contents: files.get(args.path),
        loader: 'js',
        resolveDir: outdir,
      }));
      b.onLoad({ filter: /.*/, namespace: 'start-exports' }, (args) => {
        const index = startIndex.get(args.path);
        const names = parts.exportsOf(args.path);
        const locals = names.map((n, j) => `x${j}=__news_start.shared.${startName(index, n)}`);
        const exports = names.map((n, j) => `x${j} as ${n}`);
        return {
          contents: `const ${locals.join(',')};export{${exports.join(',')}};`,
          loader: 'js',
        };
      });
    },
  };
}

/** The script's import() calls, as calls of what the loader passes (see the header). */
function rewriteImports(result, outdir, parts) {
  let text = result.outputFiles[0].text;
  const [meta] = Object.values(result.metafile.outputs);
  const specs = new Set(
    meta.imports.filter((imp) => imp.kind === 'dynamic-import').map((imp) => imp.path),
  );
  for (const spec of specs) {
    const path = chunkPath(outdir, spec);
    const via = path !== undefined && parts.lazy.has(path) ? '__news_lazy' : '__news_import';
    text = text.replaceAll(`import(${JSON.stringify(spec)})`, `${via}(${JSON.stringify(spec)})`);
  }
  const left = /(?<![\w$.])import\s*\(/.exec(text);
  if (left !== null)
    throw new Error(
      `an import() the build cannot rewrite: ${text.slice(left.index, left.index + 60)}`,
    );
  // ASCII only (a regular expression may hold ’): the source stays a one-byte string.
  return text.replace(
    /[^\x00-\x7f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A file of a script, for the ES module chunks that import it: its exports, read off the script. */
function proxy(path, parts, startIndex) {
  const names = parts.exportsOf(path);
  const core = "globalThis[Symbol.for('news-search-cli.core')]";
  const lazy = parts.lazy.has(path);
  const from = lazy
    ? `await ${core}.lazy(${JSON.stringify(`./${basename(path)}`)})`
    : `${core}.start.shared`;
  const read = (n) => (lazy ? n : startName(startIndex.get(path), n));
  const locals = names.map((n, j) => `x${j}=m.${read(n)}`);
  const exports = names.map((n, j) => `x${j} as ${n}`);
  return `const m=${from};const ${locals.join(',')};export{${exports.join(',')}};\n`;
}

/**
 * Builds both scripts and the proxies. `parts`: { start, lazy, esm } (sets of
 * pass-one paths) and exportsOf(path). Returns { start, lazy, proxies } (texts; proxies by path).
 */
export async function buildScripts(outdir, files, parts, importedBy) {
  const startFiles = [...parts.start];
  const startIndex = new Map(startFiles.map((path, i) => [path, i]));
  // One object of plain values (esbuild would define a getter per export, ~300 at every start).
  const shared = startFiles.flatMap((path, i) =>
    parts.exportsOf(path).map((n) => ({ path, n, as: startName(i, n) })),
  );
  const startEntry = [
    "export * from './main.js';",
    ...shared.map(({ path, n, as }) => `import { ${n} as ${as} } from './${basename(path)}';`),
    `export const shared = {${shared.map(({ as }) => as).join(',')}};`,
  ].join('\n');
  const lazyEntry = `export const loaders = {${[...parts.lazy]
    .map((path) => `${JSON.stringify(`./${basename(path)}`)}: () => import('./${basename(path)}')`)
    .join(',')}};`;
  const script = async (name, contents) =>
    rewriteImports(
      await build({
        ...COMMON,
        stdin: { contents, resolveDir: outdir, sourcefile: `${name}-entry.js` },
        plugins: [fromPassOne(outdir, files, parts, name, startIndex)],
      }),
      outdir,
      parts,
    );
  const proxies = new Map(
    [...importedBy].filter((p) => !parts.esm.has(p)).map((p) => [p, proxy(p, parts, startIndex)]),
  );
  return {
    start: await script('start', startEntry),
    lazy: await script('lazy', lazyEntry),
    proxies,
  };
}
