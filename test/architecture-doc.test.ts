/**
 * docs/ARCHITECTURE.md follows the tree: every file it names
 * (`stream/notes.ts`, `page-window.ts`, `src/output/sink.ts`) is a file of
 * the repository, found by the end of its path, so a move or a rename that
 * forgets the doc fails here.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);

describe('docs/ARCHITECTURE.md', () => {
  it('names only files that exist', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
    const doc = readFileSync(new URL('docs/ARCHITECTURE.md', root), 'utf8');
    const named = new Set<string>();
    for (const [path] of doc.matchAll(/[\w./-]*\w\.ts\b/g)) named.add(path.replace(/^\.\//, ''));
    expect(named.size).toBeGreaterThan(40);
    const missing = [...named].filter(
      (path) => !files.some((f) => f === path || f.endsWith(`/${path}`)),
    );
    expect(missing).toEqual([]);
  });
});
