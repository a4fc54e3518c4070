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

/** The packages a static value import path from src/cli/main.ts reaches, with the file importing each. */
function startupPackages(): { packages: Map<string, string>; files: number } {
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
  return { packages, files: seen.size };
}

describe('news --help loads no table library', () => {
  // The views and `-f table` draw with cli-table3 (and string-width): every
  // command registers at start-up, so those modules are imported only where a
  // table is drawn. This walks the static value imports from the entry point.
  it('no static import path from src/cli/main.ts reaches cli-table3 or string-width', () => {
    const { packages, files } = startupPackages();
    expect(files).toBeGreaterThan(50);
    expect(packages.has('commander')).toBe(true);
    for (const heavy of ['cli-table3', 'string-width']) {
      expect(packages.get(heavy), `${heavy} is imported at start-up`).toBeUndefined();
    }
  });
});

describe('news --help loads no MCP SDK', () => {
  // The SDK and the zod it brings cost ~100 ms: only `news mcp` loads them, with import().
  it('no static import path from src/cli/main.ts reaches the MCP SDK (@modelcontextprotocol/server, core) or zod', () => {
    const { packages } = startupPackages();
    for (const [name, file] of packages) {
      expect(
        /^(@modelcontextprotocol\/(?:sdk|server|core)|zod)(\/|$)/.test(name),
        `${name} from ${file}`,
      ).toBe(false);
    }
  });
});

/**
 * A resolve hook in the child records every module it loads, so a check sees
 * what a real run loads, dynamic imports included (the static walk above
 * cannot see those).
 */
const MODULE_LOG_HOOK = `data:text/javascript,${encodeURIComponent(`
    import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(\`
      import { appendFileSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        if (resolved.url.includes('/node_modules/')) appendFileSync(process.env.NEWS_TEST_MODULE_LOG, resolved.url + '\\\\n');
        return resolved;
      }\`));
  `)}`;

/** The packages' modules a run of the built CLI loads (their URLs). */
async function loadedModules(
  args: string[],
  extraEnv: Record<string, string> = {},
  exitCode = 0,
): Promise<string> {
  const { mkdtempSync, existsSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { runToEnd, BIN } = await import('../helpers/spawn.js');
  const dir = mkdtempSync(join(tmpdir(), 'news-import-cost-'));
  const log = join(dir, 'modules.log');
  // The cache folder too (completion values; a code cache for these Node options): not the user's.
  const r = await runToEnd(process.execPath, ['--import', MODULE_LOG_HOOK, BIN, ...args], {
    ...process.env,
    XDG_CACHE_HOME: join(dir, 'cache'),
    ...extraEnv,
    NEWS_TEST_MODULE_LOG: log,
  });
  expect(r.code, r.stderr).toBe(exitCode);
  return existsSync(log) ? readFileSync(log, 'utf8') : '';
}

describe('a list command draws with cli-table3 only when it draws a table', () => {
  // The facets and highlights of a response are read on every list command;
  // drawing them (views/facets.ts → ranked-table → cli-table3, string-width)
  // costs 8–10 ms a run and happens only for a table on a terminal.
  const TABLE = /\/node_modules\/(cli-table3|string-width)\//;

  it('not for search -f jsonl', { timeout: 60_000 }, async () => {
    expect(await loadedModules(['search', '--mock', '-f', 'jsonl', '--limit', '3'])).not.toMatch(
      TABLE,
    );
  });

  it('but for -f table (the check above can see it)', { timeout: 60_000 }, async () => {
    expect(await loadedModules(['search', '--mock', '-f', 'table', '--limit', '3'])).toMatch(TABLE);
  });
});

describe('the AWS SDK loads only for s3:// paths', () => {
  // The SDK costs ~200 ms and must stay out of everything but an s3:// export.
  const loadedSdk = async (
    args: string[],
    extraEnv: Record<string, string> = {},
    exitCode = 0,
  ): Promise<boolean> =>
    (await loadedModules(args, extraEnv, exitCode)).includes('@aws-sdk/client-s3');

  it('not for --help, nor an export to a local file', { timeout: 60_000 }, async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    expect(await loadedSdk(['search', '--help'])).toBe(false);
    const out = join(mkdtempSync(join(tmpdir(), 'news-import-cost-')), 'out.parquet');
    expect(await loadedSdk(['search', '--mock', '--all', '--limit', '150', '-o', out])).toBe(false);
  });

  it('but for -o s3://… (the check above can see it)', { timeout: 60_000 }, async () => {
    // No store behind it: the SDK loads, fails to connect, and the run ends.
    expect(
      await loadedSdk(
        ['search', '--mock', '-o', 's3://some-bucket/out.parquet', '--retries', '0'],
        {
          AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9',
          AWS_ACCESS_KEY_ID: 'x',
          AWS_SECRET_ACCESS_KEY: 'y',
          AWS_REGION: 'us-east-1',
        },
        5,
      ),
    ).toBe(true);
  });
});
