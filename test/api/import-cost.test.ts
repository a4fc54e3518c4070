import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
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
