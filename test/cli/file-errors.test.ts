/**
 * Every path that reads or writes a file the user named says what
 * went wrong in plain words, with a hint, through the one mapping
 * (src/output/file-errors.ts; its table: test/output/file-errors.test.ts).
 * A read-only file system cannot be made in a test: `open` answers EROFS for
 * paths under a folder named `rofs`, as a read-only mount would.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { CliIO } from '../../src/cli/runtime/io.js';
import { run } from '../../src/cli/main.js';
import { isolatedConfigHome, runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readOnly = (path: unknown) => typeof path === 'string' && /[/\\]rofs[/\\]/.test(path);
  const erofs = (path: string) =>
    Object.assign(new Error(`EROFS: read-only file system, open '${path}'`), {
      code: 'EROFS',
      errno: -30,
      syscall: 'open',
      path,
    });
  const open = ((path: string, ...rest: unknown[]) => {
    const callback = rest.at(-1) as (error: Error | null) => void;
    if (readOnly(path)) return process.nextTick(() => callback(erofs(path)));
    return (fs.open as (...a: unknown[]) => void)(path, ...rest);
  }) as typeof fs.open;
  return { ...fs, default: { ...fs, open }, open };
});

const dir = scratchDir('news-file-errors-cli-');
const QUIET = ['--mock', '-q'];

describe('file errors in plain words, on each path', () => {
  it('search -o on a read-only file system: EROFS in words, with a hint (exit 2)', async () => {
    mkdirSync(join(dir, 'rofs'), { recursive: true });
    const out = join(dir, 'rofs', 'out.jsonl');
    const r = await runCli(['search', ...QUIET, '--limit', '5', '-o', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: cannot write ${out}: the file system is read-only (EROFS)\n` +
        'hint: write to a directory on a file system that takes writes\n',
    );
    expect(readdirSync(join(dir, 'rofs'))).toEqual([]);
  });

  it('search -o into a missing directory names it, with mkdir -p', async () => {
    const missing = join(dir, 'nonexistent', 'dir');
    const r = await runCli(['search', ...QUIET, '--limit', '5', '-o', join(missing, 'out.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: cannot write ${join(missing, 'out.jsonl')}: the directory ${missing} does not exist (ENOENT)\n` +
        `hint: create it first (mkdir -p ${missing}), or write somewhere else\n`,
    );
  });

  it.runIf(process.platform === 'linux')(
    'search -o /proc/ro.csv: /proc exists and takes no new file (not "does not exist")',
    async () => {
      const r = await runCli(['search', ...QUIET, '--limit', '5', '-o', '/proc/ro.csv']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        'error: cannot write /proc/ro.csv: no file can be created in /proc (ENOENT)\n' +
          'hint: write to another directory\n',
      );
    },
  );

  it('search --all -o: the checkpoint beside the file says the same', async () => {
    const missing = join(dir, 'gone');
    const out = join(missing, 'all.csv');
    const r = await runCli(['search', ...QUIET, '--all', '--per-page', '100', '-o', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: cannot write ${out}.partial.jsonl: the directory ${missing} does not exist (ENOENT)\n` +
        `hint: create it first (mkdir -p ${missing}), or write somewhere else\n`,
    );
  });

  it('stream -o /nonexistent/dir/out.jsonl: refused before connecting, with the hint', async () => {
    const missing = join(dir, 'nonexistent', 'dir');
    const out = join(missing, 'out.jsonl');
    const r = await runCli(['stream', ...QUIET, '--max-events', '1', '-o', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: cannot write ${out}: the directory ${missing} does not exist (ENOENT)\n` +
        `hint: create it first (mkdir -p ${missing}), or write somewhere else\n`,
    );
  });

  it('webhooks verify FILE that is not there: no such file', async () => {
    const r = await runCli(
      [
        'webhooks',
        'verify',
        '--secret',
        's',
        '--timestamp',
        '1',
        '--signature',
        'sha256=00',
      ].concat('nonexist.body'),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: cannot read nonexist.body: no such file (ENOENT)\n');
  });

  it('convert FILE that is not there: no such file', async () => {
    const r = await runCli(['convert', join(dir, 'none.jsonl'), '-o', join(dir, 'none.csv')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: cannot read ${join(dir, 'none.jsonl')}: no such file (ENOENT)\n`);
  });

  it('convert -o on a read-only file system: EROFS', async () => {
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, '{"id":1}\n');
    const out = join(dir, 'rofs', 'converted.csv');
    mkdirSync(join(dir, 'rofs'), { recursive: true });
    const r = await runCli(['convert', input, '-o', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^error: cannot write ${out}: the file system is read-only \\(EROFS\\)$`, 'm'),
    );
  });

  it('the config file that cannot be read (a directory): where it is and why', async () => {
    const home = isolatedConfigHome();
    mkdirSync(join(home, 'news', 'config.json'), { recursive: true });
    const r = await runCli(['config', 'get', 'format'], { env: { XDG_CONFIG_HOME: home } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: cannot read the config file ${join(home, 'news', 'config.json')}: it is a directory (EISDIR)\n` +
        'hint: name a file inside it\n',
    );
  });

  it.runIf(process.platform === 'linux' && existsSync('/dev/full'))(
    'a write that fails half-way (-o /dev/full): the disk is full, exit 1',
    async () => {
      const r = await runCli(['search', ...QUIET, '--limit', '5', '-f', 'csv', '-o', '/dev/full']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: cannot write \/dev\/full: the disk is full \(ENOSPC\)$/m);
      expect(r.stderr).not.toMatch(/unexpected/);
    },
  );

  it('standard output that fails (a full disk behind > FILE): in words, not "unexpected"', async () => {
    const stdout = Object.assign(
      new PassThrough({
        write(_chunk, _encoding, callback) {
          callback(
            Object.assign(new Error('ENOSPC: no space left on device, write'), {
              code: 'ENOSPC',
              errno: -28,
              syscall: 'write',
            }),
          );
        },
      }),
      { isTTY: false },
    );
    stdout.on('error', () => undefined);
    const stderr = new PassThrough();
    const err: Buffer[] = [];
    stderr.on('data', (c: Buffer) => err.push(c));
    const io: CliIO = {
      stdout,
      stderr,
      stdin: process.stdin,
      env: { XDG_CONFIG_HOME: isolatedConfigHome() },
      now: () => new Date(),
    };
    const code = await run(['count', ...QUIET], io);
    expect(code).toBe(1);
    expect(Buffer.concat(err).toString()).toBe(
      'error: cannot write the output: the disk is full (ENOSPC)\n',
    );
  });

  it('--state under a file: the path part that is not a directory, in words (exit 2)', async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    const r = await runCli([
      'search',
      ...QUIET,
      '--state',
      join(file, 'st.json'),
      '-o',
      join(dir, 's.jsonl'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: cannot use --state ${join(file, 'st.json')}: ${file} is not a directory (ENOTDIR)\n` +
        'hint: point --state at a file in a directory you can write\n',
    );
  });

  it('--log-file that cannot be appended to: a warning in words, the export still written', async () => {
    const file = join(dir, 'log-file-under');
    writeFileSync(file, 'x');
    const out = join(dir, 'logged.jsonl');
    const r = await runCli([
      'search',
      ...QUIET,
      '--limit',
      '2',
      '--log-file',
      join(file, 'log.jsonl'),
      '-o',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `warning: could not append to --log-file ${join(file, 'log.jsonl')}: ${file} is not a directory (EEXIST)\n`,
    );
    expect(existsSync(out)).toBe(true);
  });
});
