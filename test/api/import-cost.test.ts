import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const API_DIR = join(import.meta.dirname, '../../src/api');

describe('src/api stays cheap to import', () => {
  // undici costs ~170 ms to load; `--help` must not pay for it. Only
  // `import type … from 'undici'` and a dynamic `import('undici')` are allowed.
  it.each(readdirSync(API_DIR).filter((f) => f.endsWith('.ts')))(
    '%s has no static value import of undici',
    (file) => {
      const source = readFileSync(join(API_DIR, file), 'utf8');
      const staticImports =
        source.match(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+['"]undici['"]/gm) ?? [];
      expect(staticImports).toEqual([]);
      expect(source).not.toMatch(/^\s*import\s+['"]undici['"]/m);
    },
  );
});

describe('news --help loads no table library', () => {
  // The views and `-f table` draw with cli-table3 (and string-width): every
  // command registers at start-up, so those modules are imported only where a
  // table is drawn. This walks the static value imports from the entry point.
  it('no static import path from src/cli/main.ts reaches cli-table3 or string-width', () => {
    const src = join(import.meta.dirname, '../../src');
    const packages = new Map<string, string>();
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      const specs = [
        ...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms),
        ...text.matchAll(/^import\s+'([^']+)'/gm),
      ].map((m) => m[1]!);
      for (const spec of specs) {
        if (!spec.startsWith('.')) {
          packages.set(spec, file);
          continue;
        }
        const target = join(dirname(file), spec.replace(/\.js$/, '.ts'));
        if (existsSync(target)) visit(target);
      }
    };
    visit(join(src, 'cli/main.ts'));
    expect(seen.size).toBeGreaterThan(50);
    expect(packages.has('commander')).toBe(true);
    for (const heavy of ['cli-table3', 'string-width']) {
      expect(packages.get(heavy), `${heavy} is imported at start-up`).toBeUndefined();
    }
  });
});
