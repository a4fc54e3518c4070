/**
 * Files and signals, and crash leftovers: what `-o`
 * does with links, pipes, devices, modes and stale temporaries.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AtomicFileSink,
  removeStaleTemporaries,
  resolveOutputTarget,
} from '../../src/output/atomic-file-sink.js';
import { tempDir } from './helpers.js';

async function writeWith(path: string, text: string): Promise<void> {
  const sink = await AtomicFileSink.open(path);
  await sink.write(text);
  await sink.commit();
}

/** A pid that no process has: a child that already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('-o targets', () => {
  it('a symbolic link is followed: the target gets the data, the link stays a link', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'real.csv'), 'old\n');
    symlinkSync('real.csv', join(dir, 'link.csv'));
    await writeWith(join(dir, 'link.csv'), 'new\n');
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link.csv'))).toBe('real.csv');
    expect(readFileSync(join(dir, 'real.csv'), 'utf8')).toBe('new\n');
  });

  it('a dangling link creates its target', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    symlinkSync('sub/made.csv', join(dir, 'dangling.csv'));
    await writeWith(join(dir, 'dangling.csv'), 'x\n');
    expect(readFileSync(join(dir, 'sub', 'made.csv'), 'utf8')).toBe('x\n');
    expect(lstatSync(join(dir, 'dangling.csv')).isSymbolicLink()).toBe(true);
  });

  it("keeps an existing destination's mode (0600 stays 0600)", async () => {
    const dir = tempDir();
    const path = join(dir, 'secret.csv');
    writeFileSync(path, 'old\n');
    chmodSync(path, 0o600);
    await writeWith(path, 'new\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it.runIf(process.platform === 'linux')(
    'pipes, devices and /dev/std* are written in place, never renamed over',
    async () => {
      expect(await resolveOutputTarget('/dev/null')).toEqual({ kind: 'direct', path: '/dev/null' });
      expect((await resolveOutputTarget('/dev/stdout')).kind).toBe('direct');
      expect((await resolveOutputTarget('/dev/fd/1')).kind).toBe('direct');
      await writeWith('/dev/null', 'gone\n');
      expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
      const dir = tempDir();
      const fifo = join(dir, 'pipe.csv');
      await new Promise((resolve) => spawn('mkfifo', [fifo]).on('exit', resolve));
      const reader = spawn('cat', [fifo]);
      let got = '';
      reader.stdout.on('data', (c: Buffer) => {
        got += c.toString();
      });
      // Listened for before the write: cat may end while the sink still closes its end.
      const exited = new Promise((resolve) => reader.on('close', resolve));
      await writeWith(fifo, 'through the pipe\n');
      await exited;
      expect(got).toBe('through the pipe\n');
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(readdirSync(dir)).toEqual(['pipe.csv']);
    },
  );

  it('a directory is refused with a clear error', async () => {
    await expect(AtomicFileSink.open(tempDir())).rejects.toThrow(/it is a directory/);
  });
});

describe('stale temporaries', () => {
  it("removes those of dead processes beside the destination, keeps live ones and others' files", async () => {
    const dir = tempDir();
    const path = join(dir, 'out.csv');
    const dead = await deadPid();
    const stale = join(dir, `.out.csv.${dead}.0badc0de.tmp`);
    const live = join(dir, `.out.csv.${process.ppid}.0badc0de.tmp`);
    const other = join(dir, `.other.csv.${dead}.0badc0de.tmp`);
    const unrelated = join(dir, '.out.csv.notes.tmp');
    for (const f of [stale, live, other, unrelated]) writeFileSync(f, 'x');
    expect(await removeStaleTemporaries(path)).toEqual([stale]);
    await writeWith(path, 'data\n');
    expect(readdirSync(dir).sort()).toEqual(
      [
        '.other.csv.' + dead + '.0badc0de.tmp',
        `.out.csv.${process.ppid}.0badc0de.tmp`,
        '.out.csv.notes.tmp',
        'out.csv',
      ].sort(),
    );
  });
});
