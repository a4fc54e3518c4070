/**
 * Which test files need the build (vitest.config.ts splits the suite on it).
 * A file needs dist/ when it runs the built binary or reads what the build
 * wrote, and it says so by what it imports: test/helpers/spawn.ts (BIN, the
 * binary) or test/helpers/mcp.ts (which spawns it), or a path into ../dist/;
 * a file that reads dist/ some other way (through a function of src/) says
 * so in a line comment that starts `// needs dist/:` and gives the reason.
 * Everything under test/e2e/ is of that kind by definition. The rest runs
 * against the sources, in-process, with no build: the edit loop's tests.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

const NEEDS_BUILD = /helpers\/(spawn|mcp)\.js['"]|['"](\.\.\/)+dist\/|^\/\/ needs dist\/: /m;

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(path));
    else if (entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** The test files (paths from the repository root) that run the built binary or read dist/. */
export function builtTestFiles(): string[] {
  return testFiles(join(root, 'test'))
    .map((path) => relative(root, path).split('\\').join('/'))
    .filter(
      (file) =>
        file.startsWith('test/e2e/') || NEEDS_BUILD.test(readFileSync(join(root, file), 'utf8')),
    )
    .sort();
}
