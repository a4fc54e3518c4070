import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleReason } from './build-once.js';
import { scratchDir } from './scratch.js';
import { testProjects } from './test-projects.js';

describe('the split of the suite (vitest.config.ts)', () => {
  const { built, isolated, ownProcess, shared, slow } = testProjects();

  it('puts every file of test/e2e/ in the built project', () => {
    const e2e = readdirSync('test/e2e').filter((f) => f.endsWith('.test.ts'));
    expect(e2e.length).toBeGreaterThan(0);
    for (const file of e2e) expect([...built, ...isolated]).toContain(`test/e2e/${file}`);
    expect(built).toContain('test/e2e/install.test.ts');
  });

  it('finds a file by its import of the binary, a dist/ path, or its `// needs dist/:` line', () => {
    expect(built).toContain('test/s3/errors.test.ts'); // helpers/spawn.js
    expect(built).toContain('test/cli/completion-shells.test.ts'); // ../../dist/cli/completion/tree.json
    expect(built).not.toContain('test/cli/completion.test.ts');
    expect(isolated).toContain('test/mock/store.test.ts'); // needs dist/: the store file (and its own process)
  });

  it('leaves the in-process files to the unit projects', () => {
    expect(shared).toContain('test/cli/search.test.ts');
    expect(shared).toContain('test/helpers/test-projects.test.ts');
  });

  it('gives a process of its own to a file that replaces a module or changes the directory', () => {
    expect(ownProcess).toContain('test/cli/file-errors.test.ts'); // mocks node:fs
    expect(ownProcess).toContain('test/output/atomic-writeback.test.ts'); // mocks node:fs
    expect(shared).not.toContain('test/cli/file-errors.test.ts');
  });

  it('gives a process of its own to a built or slow file that changes the directory or says so', () => {
    expect(isolated).toContain('test/cli/examples.test.ts'); // process.chdir, and spawns the binary
    expect(built).not.toContain('test/cli/examples.test.ts');
    expect(isolated).toContain('test/docs-examples.test.ts'); // process.chdir, slow
    expect(isolated).toContain('test/mock/store.test.ts'); // `// own process:`, needs dist/
    expect(slow).not.toContain('test/docs-examples.test.ts');
    expect(ownProcess).not.toContain('test/docs-examples.test.ts');
  });

  it('keeps the slow in-process files out of the edit loop', () => {
    expect(slow).toContain('test/s3/export.test.ts');
    expect(slow).toContain('test/mock/fixtures.test.ts');
    expect(shared).toContain('test/mock/server-auth.test.ts');
  });

  it('puts each test file in one project', () => {
    const all = [...built, ...isolated, ...ownProcess, ...shared, ...slow];
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeGreaterThan(100);
  });
});

describe('dist/ is built when missing or stale (build-once.ts)', () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
  function checkout(): string {
    const dir = scratchDir('checkout-');
    mkdirSync(join(dir, 'src', 'cli'), { recursive: true });
    mkdirSync(join(dir, 'dist', 'bundle'), { recursive: true });
    writeFileSync(join(dir, 'src', 'cli', 'main.ts'), '');
    utimesSync(join(dir, 'src', 'cli', 'main.ts'), at(10), at(10));
    utimesSync(join(dir, 'src', 'cli'), at(10), at(10));
    utimesSync(join(dir, 'src'), at(10), at(10));
    return dir;
  }
  const built = (dir: string, seconds: number) => {
    for (const name of ['start.cache', 'lazy.cache']) {
      writeFileSync(join(dir, 'dist', 'bundle', name), '');
      utimesSync(join(dir, 'dist', 'bundle', name), at(seconds), at(seconds));
    }
  };

  it('missing: no code caches, the last thing the build writes', () => {
    expect(staleReason(checkout())).toBe('dist/bundle/start.cache is missing');
  });

  it('up to date: built after the last change', () => {
    const dir = checkout();
    built(dir, 20);
    expect(staleReason(dir)).toBeUndefined();
  });

  it('stale: a source changed after the build', () => {
    const dir = checkout();
    built(dir, 20);
    utimesSync(join(dir, 'src', 'cli', 'main.ts'), at(30), at(30));
    expect(staleReason(dir)).toBe('src changed since the last build');
  });

  it('stale: a build that stopped half-way left one cache older than the sources', () => {
    const dir = checkout();
    built(dir, 5);
    utimesSync(join(dir, 'dist', 'bundle', 'start.cache'), at(20), at(20));
    expect(staleReason(dir)).toBe('src changed since the last build');
  });
});
