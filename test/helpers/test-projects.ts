/**
 * Which test files need the build (vitest.config.ts splits the suite on it).
 * A file needs dist/ when it runs the built binary or reads what the build
 * wrote, and it says so by what it imports: test/helpers/spawn.ts (BIN, the
 * binary) or test/helpers/mcp.ts (which spawns it), or a path into ../dist/;
 * a file that reads dist/ some other way (through a function of src/) says
 * so in a line comment that starts `// needs dist/:` and gives the reason.
 * Everything under test/e2e/ is of that kind by definition. The rest runs
 * against the sources, in-process, with no build: the edit loop's tests.
 *
 * Files run several to a process, one after the other (vitest's `isolate:
 * false`): each file then imports the sources into a process that has them
 * already, where a process of its own cost it ~0.3 s of CPU (a unit file),
 * ~0.6 s (a built one) or ~1 s (a slow one: the mock, S3). A file that
 * changes what the next file in its process would see gets a process of its
 * own: it replaces a module (vi.mock, vi.doMock), a global (vi.stubGlobal,
 * vi.stubEnv, fake timers, process.env itself) or the working directory,
 * or it says so in a line comment that starts `// own process: ` and gives
 * the reason (it changes what the sources keep for the whole process). Such
 * a file runs in "unit-own-process", or in "isolated" when it is slow or
 * needs the build.
 *
 * The edit loop (`npm run test:fast`) leaves out the in-process files that
 * take seconds of CPU each (SLOW: the mock at scale, S3 through s3rver,
 * property and conformance runs, long paging and stream runs): about a fifth
 * of the in-process tests, three quarters of their time. They run in
 * "unit-slow", with everything else in `npm test`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

const NEEDS_BUILD = /helpers\/(spawn|mcp)\.js['"]|['"](\.\.\/)+dist\/|^\/\/ needs dist\/: /m;

const CHANGES_THE_PROCESS =
  /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(|\bprocess\.chdir\(|\bprocess\.env = |^\/\/ own process: /m;

const SLOW: readonly RegExp[] = [
  /^test\/(s3|fuzz|conformance|db)\//,
  /^test\/cli\/unattended\//,
  /^test\/mock\/(fixtures.*|conformance-.*|extras-lean|store-grown-cache|publisher|long-running|search-row-sets)\.test\.ts$/,
  /^test\/cli\/(stream|paging|every-format|views|webhooks)\.test\.ts$/,
  /^test\/output\/(delimited-bytes|json-bytes)\.test\.ts$/,
  /^test\/query\/properties\.test\.ts$/,
  /^test\/docs-examples\.test\.ts$/,
  // Runs vitest itself, in a process of its own.
  /^test\/helpers\/scratch\.test\.ts$/,
  // Bundles the MCP SDK with esbuild and loads a second copy of it (and of zod).
  /^test\/mcp\/lazy-schemas\.test\.ts$/,
];

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(path));
    else if (entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

export interface TestProjects {
  /** Run the built binary or read dist/ (paths from the repository root). */
  built: string[];
  /** Built or slow, but each in a process of its own (after the build, when stale). */
  isolated: string[];
  /** In-process, but each in a process of its own. */
  ownProcess: string[];
  /** In-process, sharing processes: all the other test files. */
  shared: string[];
  /** In-process, seconds of CPU each: not in the edit loop. */
  slow: string[];
}

export function testProjects(): TestProjects {
  const out: TestProjects = { built: [], isolated: [], ownProcess: [], shared: [], slow: [] };
  for (const path of testFiles(join(root, 'test')).sort()) {
    const file = relative(root, path).split('\\').join('/');
    const text = readFileSync(path, 'utf8');
    const own = CHANGES_THE_PROCESS.test(text);
    const built = file.startsWith('test/e2e/') || NEEDS_BUILD.test(text);
    const slow = !built && SLOW.some((pattern) => pattern.test(file));
    if ((built || slow) && own) out.isolated.push(file);
    else if (built) out.built.push(file);
    else if (slow) out.slow.push(file);
    else if (own) out.ownProcess.push(file);
    else out.shared.push(file);
  }
  return out;
}
