/**
 * The MCP SDK's zod schemas, built when first used instead of when the SDK
 * loads: an esbuild plugin for pass 1 of build/bundle.mjs (bench/README.md,
 * "MCP start-up").
 *
 * @modelcontextprotocol/core defines every schema of the specification and of
 * OAuth at its modules' top level (~180), the server's elicitation checks
 * read a few of them at load, and its wire layer builds a whole era's set
 * (~150) on the first validation: ~30 ms of `news mcp`'s first answer, which
 * needs a few dozen of them. Each `const …Schema = EXPR;` of those places
 * (and each schema of the wire layer's maps) becomes
 * `const …Schema = __lazySchema(() => (EXPR));`, a stand-in that builds the
 * schema on first use and is the schema from then on
 * (build/lazy-schema-runtime.mjs); the elicitation checks' three sets, read
 * off schemas, become stand-ins the same way (`__lazyValue`). What is built
 * from a stand-in (`X.optional()`, `z.object({ a: X })`) is an ordinary zod
 * schema holding it, as it would hold the schema. One difference shows:
 * z.toJSONSchema keys its walk by object identity and fails on a schema
 * holding stand-ins; the SDK converts only the schemas a server registers
 * (tools, prompts, elicitation), never these, and `news` none.
 *
 * It reads the SDK's built files as text, so it is pinned to the version it
 * was written for: the build stops when a file, a region or the number of
 * constants found in one differs from what is listed here, and
 * test/mcp/lazy-schemas.test.ts fails when the installed SDK is another
 * version or the stand-ins do not behave as the schemas.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The SDK version this was written for (package.json pins it exactly). */
export const SDK_VERSION = '2.4.0';

/** How an item starts (after its indent), and the character it ends with. */
const ITEMS = {
  const: { head: /const ([\w$]+) = /, tail: ';' },
  property: { head: /"?([\w$/]+)"?: /, tail: ',' },
};
/** `const …Schema = EXPR;` at `indent`. */
const SCHEMAS = (indent) => ({
  indent,
  item: 'const',
  names: /Schema(?:\$\d+)?$/,
  wrap: '__lazySchema',
});
/** An object literal's `KEY: EXPR,` at `indent` (every value of those listed is a schema). */
const PROPERTIES = (indent) => ({ indent, item: 'property', names: /./, wrap: '__lazySchema' });

/**
 * The files and, in each, the regions, in file order: from the line `start`
 * to the next line starting with `end`, each item at `indent` (a top-level or
 * function-body `const NAME = EXPR;`, or an object literal's `KEY: EXPR,`)
 * whose name matches `names` and whose expression is not a plain name,
 * wrapped in `wrap`; `count`: how many there are.
 */
export const TARGETS = [
  {
    file: /[\\/]@modelcontextprotocol[\\/]core[\\/]dist[\\/]schemas-[\w-]+\.mjs$/,
    regions: [{ start: '//#region src/schemas.ts', end: 'export {', ...SCHEMAS(''), count: 166 }],
  },
  {
    file: /[\\/]@modelcontextprotocol[\\/]core[\\/]dist[\\/]auth-[\w-]+\.mjs$/,
    regions: [
      { start: 'import * as z from "zod/v4";', end: 'export {', ...SCHEMAS(''), count: 14 },
    ],
  },
  {
    file: /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]src-[\w-]+\.mjs$/,
    regions: [
      // The 2025-11-25 wire schemas and the ones its builder returns built.
      { start: 'function build$1() {', end: '\treturn {', ...SCHEMAS('\t'), count: 140 },
      { start: '\treturn {', end: '\t};', ...PROPERTIES('\t\t'), count: 8 },
      // The 2026-07-28 ones, their dispatch maps, and the ones its builder returns built.
      {
        start: 'function build() {',
        end: '\tconst dispatchRequestSchemas = {',
        ...SCHEMAS('\t'),
        count: 121,
      },
      {
        start: '\tconst dispatchRequestSchemas = {',
        end: '\t};',
        ...PROPERTIES('\t\t'),
        count: 10,
      },
      { start: '\tconst dispatchResultSchemas = {', end: '\t};', ...PROPERTIES('\t\t'), count: 10 },
      { start: '\t};', end: '\treturn {', ...SCHEMAS('\t'), count: 4 },
      { start: '\treturn {', end: '\t};', ...PROPERTIES('\t\t'), count: 11 },
      // The elicitation checks' sets, read off schemas when the module loads.
      {
        start: '//#region ../core-internal/src/shared/elicitation.ts',
        end: '//#endregion',
        indent: '',
        item: 'const',
        names: /^(?:ROOT_KEYS|PROPERTY_KEYS_BY_TYPE|SUPPORTED_STRING_FORMATS)$/,
        wrap: '__lazyValue',
        count: 3,
      },
    ],
  },
];

const RUNTIME = fileURLToPath(new URL('./lazy-schema-runtime.mjs', import.meta.url));

/** Whether `line` starts an item or a comment at `indent` (not a continuation, not a closing bracket). */
const startsItem = (line, indent) =>
  line.startsWith(indent) && line.length > indent.length && !/[\s})\]]/.test(line[indent.length]);

/**
 * `source` with the items of each region wrapped, and how many were by
 * region. Throws when a region is not found or an item does not end as
 * expected.
 */
export function lazify(source, regions) {
  const lines = source.split('\n');
  const counts = [];
  let from = 0;
  for (const { start, end, indent, item, names, wrap } of regions) {
    const first = lines.indexOf(start, from);
    let last = first + 1;
    while (first !== -1 && last < lines.length && !lines[last].startsWith(end)) last++;
    if (first === -1 || last === lines.length)
      throw new Error(`lazy-schemas: no region ${JSON.stringify(start)} … ${JSON.stringify(end)}`);
    const { head: pattern, tail: ending } = ITEMS[item];
    const itemHead = new RegExp(`^${indent}${pattern.source}`);
    let count = 0;
    for (let i = first + 1; i < last; i++) {
      const match = itemHead.exec(lines[i]);
      if (match === null || !names.test(match[1])) continue;
      const head = match[0].length;
      // A plain name (`key: OtherSchema,`) is already a stand-in or cheap.
      if (/^[\w$]+[,;]?$/.test(lines[i].slice(head))) continue;
      // The item runs to the line before the next item or comment at its indent.
      let j = i + 1;
      while (j < last && !startsItem(lines[j], indent)) j++;
      while (j - 1 > i && lines[j - 1].trim() === '') j--;
      const endLine = j - 1;
      const tail = /[;,]$/.exec(lines[endLine])?.[0] ?? '';
      // (an object literal's last property has no comma)
      if (tail !== ending && !(item === 'property' && j === last && tail === ''))
        throw new Error(`lazy-schemas: ${match[1]} does not end where expected`);
      lines[i] = `${lines[i].slice(0, head)}${wrap}(() => (${lines[i].slice(head)}`;
      const body = lines[endLine].slice(0, lines[endLine].length - tail.length);
      lines[endLine] = `${body}))${tail}`;
      count++;
      i = endLine;
    }
    counts.push(count);
    from = last;
  }
  return { text: lines.join('\n'), counts };
}

/** The esbuild plugin: each target file lazified, its counts checked. */
export const lazySchemas = {
  name: 'lazy-schemas',
  setup(b) {
    b.onLoad(
      { filter: /[\\/]@modelcontextprotocol[\\/](?:core|server)[\\/]dist[\\/][\w-]+\.mjs$/ },
      async (args) => {
        const target = TARGETS.find((t) => t.file.test(args.path));
        if (target === undefined) return undefined;
        const { text, counts } = lazify(await readFile(args.path, 'utf8'), target.regions);
        const expected = target.regions.map((r) => r.count);
        if (counts.join() !== expected.join())
          throw new Error(
            `lazy-schemas: ${args.path} has ${counts.join(', ')} constants to wrap where ${expected.join(', ')} were expected: the MCP SDK changed (build/lazy-schemas.mjs is written for ${SDK_VERSION})`,
          );
        return {
          contents: `import { lazySchema as __lazySchema, lazyValue as __lazyValue } from ${JSON.stringify(RUNTIME)};\n${text}`,
          loader: 'js',
        };
      },
    );
  },
};
