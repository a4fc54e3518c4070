import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/ARCHITECTURE.md: no import cycles in src/. Every relative import
 * counts, static or `import()`, value or type: a cycle of types is still two
 * files that cannot be read apart.
 */
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(IMPORT)) {
    found.add(resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')));
  }
  return [...found];
}

/** Tarjan's strongly connected components with more than one file, or a file importing itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('src/', () => {
  it('has no import cycles', () => {
    const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));
    expect(graph.size).toBeGreaterThan(100);
    const named = cycles(graph).map((c) => c.map((f) => relative(SRC, f)).sort());
    expect(named).toEqual([]);
  });

  it('keeps the layers: arrows point down (docs/ARCHITECTURE.md)', () => {
    // What each top-level folder may import besides itself.
    const allowed: Record<string, readonly string[]> = {
      params: [],
      api: ['params'],
      output: ['params', 'api'],
      mock: ['params', 'api'],
      cli: ['params', 'api', 'output', 'mock'],
    };
    const upward: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const layer = relative(SRC, file).split('/')[0]!;
      for (const target of importsOf(file)) {
        const to = relative(SRC, target).split('/')[0]!;
        if (to !== layer && !(allowed[layer] ?? []).includes(to)) {
          upward.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it("src/cli's folders import each other in one direction only", () => {
    // Root files are the program (main, program, registry) and what every command
    // shares; each folder is one flow, and two flows never lean on each other.
    const CLI = join(SRC, 'cli');
    const folderOf = (file: string): string | undefined => {
      const parts = relative(CLI, file).split('/');
      return parts.length > 1 && !parts[0]!.startsWith('..') ? parts[0] : undefined;
    };
    const edges = new Map<string, Set<string>>();
    for (const file of sourceFiles(CLI)) {
      const from = folderOf(file);
      if (from === undefined) continue;
      for (const target of importsOf(file)) {
        const to = folderOf(target);
        if (to === undefined || to === from) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)!.add(to);
      }
    }
    expect(edges.size).toBeGreaterThan(5);
    const graph = new Map([...edges].map(([from, to]) => [from, [...to]]));
    for (const to of [...edges.values()].flatMap((set) => [...set])) {
      if (!graph.has(to)) graph.set(to, []);
    }
    expect(cycles(graph).map((c) => c.sort())).toEqual([]);
  });
});
