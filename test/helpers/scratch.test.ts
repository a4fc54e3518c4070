import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../output/helpers.js';
import { isolatedConfigHome } from './cli.js';
import { scratchDir, scratchRoot } from './scratch.js';

const repo = resolve(import.meta.dirname, '../..');

describe('test scratch folders', () => {
  it('the per-call helpers make their folders inside the one root of this file', () => {
    expect(dirname(isolatedConfigHome())).toBe(scratchRoot());
    expect(dirname(tempDir())).toBe(scratchRoot());
    expect(isolatedConfigHome()).not.toBe(isolatedConfigHome());
  });

  it("a test file run with the project config leaves no folder behind, its own or its children's", () => {
    // A one-test file that calls runCli (which makes a config home) and says
    // where its folder was, run by vitest with vitest.config.ts.
    const dir = scratchDir('leak-');
    mkdirSync(join(dir, 'test'));
    const said = join(dir, 'made');
    const cli = JSON.stringify(join(repo, 'test/helpers/cli.js'));
    writeFileSync(
      join(dir, 'test', 'leak.test.ts'),
      `import { execFileSync } from 'node:child_process';
       import { mkdtempSync, writeFileSync } from 'node:fs';
       import { tmpdir } from 'node:os';
       import { join } from 'node:path';
       import { expect, it } from 'vitest';
       import { isolatedConfigHome, runCli } from ${cli};
       // A folder made as the file is imported, and one by a process it spawns, in the OS temp dir.
       const moduleLevel = mkdtempSync(join(tmpdir(), 'module-level-'));
       it('runs', async () => {
         expect((await runCli(['--version'])).code).toBe(0);
         const child = execFileSync(process.execPath, ['-e',
           "process.stdout.write(require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'child-')))"],
           { encoding: 'utf8' });
         writeFileSync(${JSON.stringify(said)}, [isolatedConfigHome(), moduleLevel, child].join('\\n'));
       });`,
    );
    // The project config with its test settings (setupFiles above all), run
    // on this one folder: its projects would run the repository's tests.
    const config = join(dir, 'vitest.config.ts');
    writeFileSync(
      config,
      `import config from ${JSON.stringify(join(repo, 'vitest.config.ts'))};
       const { projects: _, ...test } = config.test ?? {};
       export default { ...config, test: { ...test, include: ['test/**/*.test.ts'], dir: ${JSON.stringify(dir)} } };`,
    );
    const vitest = join(repo, 'node_modules/vitest/vitest.mjs');
    execFileSync(process.execPath, [vitest, 'run', '--config', config], {
      cwd: repo,
      stdio: 'pipe',
    });
    const [home, moduleLevel, child] = readFileSync(said, 'utf8').split('\n') as [
      string,
      string,
      string,
    ];
    expect(home).toContain('news-config-');
    expect(existsSync(dirname(home))).toBe(false);
    // What the file left in tmpdir(), itself or through a child, went with its root.
    expect(moduleLevel).toContain('module-level-');
    expect(child).toContain('child-');
    expect(existsSync(moduleLevel)).toBe(false);
    expect(existsSync(child)).toBe(false);
    expect(dirname(child)).toBe(dirname(moduleLevel));
  });
});
