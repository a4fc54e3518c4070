/**
 * Output thrown away on purpose. Python's `stdout=DEVNULL`, Node's
 * `stdio: 'ignore'` and systemd's `StandardOutput=null` hand the command a
 * /dev/null opened read-write, the very descriptor Node opens in place of a
 * stdout the shell closed (`>&-`): the two cannot be told apart, so a
 * closed stdout is not refused any more (it was, and every scheduler that
 * discards output got exit 1). Every way of discarding runs and exits 0.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../helpers/scratch.js';
import { BIN, runToEnd } from '../helpers/spawn.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const env = () => ({
  ...process.env,
  XDG_CONFIG_HOME: scratchDir('news-discard-'),
  NEWS_API_KEY: undefined,
});
const COUNT = ['count', '--mock'];
const SEARCH = ['search', '--mock', '--limit', '300', '-f', 'jsonl'];

/** Exit status of BIN with every stdio ignored, as a scheduler starts it. */
function ignored(args: readonly string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: 'ignore', env: env() });
    child.on('close', (code) => resolve(code));
  });
}

describe.runIf(process.platform !== 'win32')('output thrown away on purpose', () => {
  it("the project's pre-stop check: spawnSync(news count --mock, { stdio: 'ignore' }) exits 0", () => {
    // Word for word the check the project runs before it stops.
    const check = spawnSync(
      process.execPath,
      [
        '-e',
        "process.exit(require('node:child_process').spawnSync(process.execPath, ['bin/news.js', 'count', '--mock'], { stdio: 'ignore' }).status ?? 1)",
      ],
      { cwd: ROOT, env: env() },
    );
    expect(check.status).toBe(0);
  });

  it("spawn with stdio 'ignore' (Node, systemd StandardOutput=null): count and a paged search exit 0", async () => {
    expect(await ignored(COUNT)).toBe(0);
    expect(await ignored(SEARCH)).toBe(0);
  });

  it('> /dev/null: exit 0, nothing on stderr but the note', async () => {
    const r = await runToEnd(
      'sh',
      ['-c', `"${process.execPath}" "${BIN}" ${SEARCH.join(' ')} > /dev/null`],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^note: using the built-in mock/);
    expect(r.stderr).not.toMatch(/error/);
  });

  it("a read-write /dev/null (1<>/dev/null, what Python's DEVNULL gives): exit 0", async () => {
    const r = await runToEnd(
      'sh',
      ['-c', `"${process.execPath}" "${BIN}" ${COUNT.join(' ')} 1<>/dev/null`],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/error/);
  });

  it('>&- (closed by the shell; Node reopens it on /dev/null read-write): the same, exit 0', async () => {
    const r = await runToEnd(
      'sh',
      ['-c', `"${process.execPath}" "${BIN}" ${SEARCH.join(' ')} >&-`],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/standard output is closed/);
  });

  const python = spawnSync('python3', ['--version']).status === 0;
  it.runIf(python)('Python subprocess.run(..., stdout=DEVNULL): exit 0', async () => {
    const script = `import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode)`;
    const r = await runToEnd('python3', ['-c', script, process.execPath, BIN, ...COUNT], env());
    expect(r.code, r.stderr).toBe(0);
  });
});
