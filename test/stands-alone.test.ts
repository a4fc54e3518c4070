/**
 * A clone is the whole project: no tracked file may read or point at
 * anything beside the repository (a sibling `shared/` folder existed on the
 * machines it was first built on, and tests that read it failed everywhere else).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f !== '' && /\.(ts|mts|mjs|js|json|md|sh)$|^\.ci\//.test(f))
  // This file's own patterns and examples would match themselves.
  .filter(
    (f) => f !== 'package-lock.json' && !f.startsWith('spec/') && f !== 'test/stands-alone.test.ts',
  );

describe('the repository stands alone', () => {
  it('has its own copy of the specification and the OpenAPI document', () => {
    const doc = JSON.parse(readFileSync(join(root, 'spec', 'openapi.json'), 'utf8')) as {
      openapi: string;
      paths: object;
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).length).toBeGreaterThanOrEqual(26);
    expect(readFileSync(join(root, 'spec', 'news-api.md'), 'utf8')).toMatch(/^# News Search/);
  });

  it('no tracked file reaches outside the repository', () => {
    const outside: string[] = [];
    for (const file of tracked) {
      const text = readFileSync(join(root, file), 'utf8');
      const here = dirname(join(root, file));
      const climbs = [
        // '../../x' in an import, a URL or a path string, resolved from the file
        ...[...text.matchAll(/['"`]((?:\.\.\/)+)/g)].map((m) => resolve(here, m[1] ?? '')),
        // join(dir, '..', '..', …)
        ...[...text.matchAll(/(?:['"`]\.\.['"`],\s*)+/g)].map((m) =>
          resolve(here, ...Array<string>(m[0].split('..').length - 1).fill('..')),
        ),
      ];
      if (/\.\.\/shared\b/.test(text) || climbs.some((p) => !`${p}/`.startsWith(`${root}/`))) {
        outside.push(file);
      }
    }
    expect(outside).toEqual([]);
  });
});
