/**
 * An output file. A regular file (new or existing) is written atomically:
 * bytes go to a temporary file beside it (same directory, so the final rename
 * stays on one file system and is atomic), which is fsynced, given the mode of
 * the file it replaces, and renamed over it only when the export succeeded.
 * On failure, abort or Ctrl-C the temporary file is removed and the
 * destination is untouched. A `.gz` destination is gzipped.
 *
 * Not everything named by `-o` is a file to replace:
 * - a symbolic link is followed: the file it points at is replaced, the link stays;
 * - a named pipe, a character device (`/dev/null`, a terminal) and the
 *   `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` names are written straight
 *   into: renaming a file onto them would replace the pipe or the device
 *   (for root, `/dev/stdout` for the whole machine);
 * - a directory or a socket is refused.
 *
 * Temporary files are named `.NAME.PID.RANDOM.tmp`; one left by a process that
 * no longer runs (`kill -9`, a power cut) is removed by the next export to
 * the same destination.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, fchmod, fdatasync, fsync, open, unlinkSync } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { lstat, readdir, readlink, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import { InterruptedError, NewsError, UsageError } from '../api/errors.js';
import { fileError } from './file-errors.js';
import { isGzipPath } from './formats.js';
import { StreamSink } from './sink.js';

// Temp files still on disk if the process exits without running abort()
// (an uncaught error elsewhere, process.exit in a signal handler).
const live = new Set<string>();
let exitHookInstalled = false;
function track(path: string): void {
  live.add(path);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const p of live) {
      try {
        unlinkSync(p);
      } catch {
        // already gone
      }
    }
  });
}

/**
 * Resolves on 'finish' (the stream does not close: we fsync the handle
 * after); rejects on an error, or when an abort closed the stream first.
 */
function finishedWriting(stream: Writable): Promise<void> {
  if (stream.writableFinished) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (err?: Error): void => {
      stream.removeListener('finish', onFinish);
      stream.removeListener('error', settle);
      stream.removeListener('close', onClose);
      if (err === undefined) resolve();
      else reject(err);
    };
    const onFinish = (): void => settle();
    const onClose = (): void => settle(new InterruptedError('interrupted'));
    stream.once('finish', onFinish);
    stream.once('error', settle);
    stream.once('close', onClose);
  });
}

/** How an output path is written. */
export type OutputTarget =
  /** A regular file, new or existing: temporary file + rename onto `path` (links followed). */
  | { kind: 'atomic'; path: string; mode: number | undefined }
  /** A pipe, a device or a standard stream: opened and written in place. */
  | { kind: 'direct'; path: string };

// The names of the process's own streams; realpath would turn /dev/stdout into
// the file the shell opened, which must be appended to, never renamed over.
const STD_STREAM = /^\/(?:dev\/(?:stdin|stdout|stderr|fd\/\d+)|proc\/(?:self|\d+)\/fd\/\d+)$/;
const MAX_LINKS = 40;

function cannotWrite(destination: string, why: string, hint?: string): UsageError {
  return new UsageError(`cannot write ${destination}: ${why}`, { hint });
}

/**
 * Decides how `destination` is written: follows symbolic links (also a
 * dangling one: its target is created), keeps an existing file's mode, writes
 * pipes and devices in place, refuses what cannot be written.
 */
export async function resolveOutputTarget(destination: string): Promise<OutputTarget> {
  let path = resolve(destination);
  if (STD_STREAM.test(path)) return { kind: 'direct', path };
  for (let hops = 0; ; hops++) {
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        return { kind: 'atomic', path, mode: undefined };
      throw fileError('write', destination, err);
    }
    if (info.isSymbolicLink()) {
      if (hops >= MAX_LINKS) throw cannotWrite(destination, 'too many levels of symbolic links');
      path = resolve(dirname(path), await readlink(path));
      continue;
    }
    if (info.isFile()) return { kind: 'atomic', path, mode: info.mode & 0o7777 };
    if (info.isFIFO() || info.isCharacterDevice()) return { kind: 'direct', path };
    if (info.isDirectory()) {
      throw cannotWrite(
        destination,
        'it is a directory',
        'name a file inside it, e.g. -o DIR/out.csv',
      );
    }
    throw cannotWrite(destination, 'it is not a regular file, a pipe or a device');
  }
}

/** True when no process with this id runs (EPERM: one runs, under another user). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes `.NAME.PID.RANDOM.tmp` files beside `path` whose process is gone.
 * Best effort: a directory that cannot be listed, or a file already removed
 * by someone else, is no reason to fail an export. Returns what it removed.
 */
export async function removeStaleTemporaries(path: string): Promise<string[]> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const m = /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length));
    if (m === null) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || !processGone(pid)) continue;
    try {
      if (!(await lstat(join(dir, name))).isFile()) continue;
      await unlink(join(dir, name));
      removed.push(join(dir, name));
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/**
 * A regular file's bytes are handed to the disk (fdatasync, not awaited)
 * every this many bytes while the export runs, so that the fsync before the
 * rename finds little left to write (the fsync of 120 MB took 30-60 ms at the end;
 * with this, ~3 ms).
 */
const WRITEBACK_EVERY = 16 * 1024 * 1024;

export class AtomicFileSink extends StreamSink {
  /** Renamed into place (or, in place, written whole): abort() changes nothing any more. */
  private done = false;
  private aborted = false;
  private aborting: Promise<void> | undefined;
  private committing: Promise<void> | undefined;
  /** The commit's fsync, close and rename, once the writing is done. */
  private syncing: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  /** The writeback in flight (never rejects), and the file size it was started at. */
  private writeback: Promise<void> | undefined;
  private writtenBack = 0;

  private constructor(
    target: Writable,
    private readonly file: WriteStream,
    private readonly fd: number,
    /** The destination as named (shown to the user). */
    readonly path: string,
    /** The temporary file, or undefined when writing in place. */
    readonly tempPath: string | undefined,
    /** Where the temporary file is renamed to (links followed). */
    private readonly finalPath: string,
  ) {
    super(target, true); // a file or gzip into one: done with a buffer once its write callback runs
    const listener = (err: Error): void => this.onError(err);
    target.on('error', listener);
    if (file !== target) file.on('error', listener);
  }

  static async open(destination: string): Promise<AtomicFileSink> {
    const named = resolve(destination);
    const target = await resolveOutputTarget(destination);
    if (target.kind === 'direct') {
      let fd: number;
      try {
        // Append: `-o /dev/stdout` after `>> log` must not truncate the log.
        fd = await promisify(open)(target.path, 'a');
      } catch (err) {
        throw fileError('write', destination, err);
      }
      return AtomicFileSink.around(fd, named, undefined, target.path);
    }
    const path = target.path;
    const dir = dirname(path);
    await removeStaleTemporaries(path);
    const temp = join(
      dir,
      `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    );
    let fd: number;
    try {
      fd = await promisify(open)(temp, 'wx', 0o666);
    } catch (err) {
      throw fileError('write', destination, err);
    }
    track(temp);
    if (target.mode !== undefined) {
      // Replacing a 0600 file must not leave a 0644 one.
      await promisify(fchmod)(fd, target.mode).catch(() => undefined);
    }
    return AtomicFileSink.around(fd, named, temp, path);
  }

  private static around(
    fd: number,
    named: string,
    temp: string | undefined,
    finalPath: string,
  ): AtomicFileSink {
    // A plain fd rather than a FileHandle: a FileHandle cannot be closed while
    // a stream holds it, and we need it open after 'finish' to fsync.
    const file = createWriteStream('', { fd, autoClose: false, highWaterMark: 1024 * 1024 });
    let target: Writable = file;
    if (isGzipPath(named)) {
      const gzip = createGzip({ level: 6 });
      gzip.pipe(file);
      target = gzip;
    }
    return new AtomicFileSink(target, file, fd, named, temp, finalPath);
  }

  override async flush(): Promise<void> {
    await super.flush();
    const written = this.file.bytesWritten;
    if (
      this.tempPath === undefined ||
      this.writeback !== undefined ||
      this.closing !== undefined ||
      written - this.writtenBack < WRITEBACK_EVERY
    ) {
      return;
    }
    this.writtenBack = written;
    // Errors surface from the fsync in commit(); this one only starts the disk early.
    this.writeback = promisify(fdatasync)(this.fd)
      .catch(() => undefined)
      .finally(() => {
        this.writeback = undefined;
      });
  }

  get committed(): boolean {
    return this.done;
  }

  /**
   * Flush, end, fsync, close, rename. The rename is the point of no return:
   * an abort() that comes before it wins (nothing is renamed, the temporary
   * file goes), one that comes during the fsync and rename waits for them.
   */
  commit(): Promise<void> {
    this.committing ??= this.finish();
    return this.committing;
  }

  private async finish(): Promise<void> {
    await this.flush();
    const target = this.target as Writable;
    if (!target.writableEnded) target.end();
    await finishedWriting(this.file).catch((err: unknown) => {
      throw err instanceof NewsError ? err : fileError('write', this.path, err, { failure: true });
    });
    this.check();
    if (this.aborted) throw new InterruptedError('interrupted');
    this.syncing = this.syncAndRename();
    await this.syncing;
  }

  private async syncAndRename(): Promise<void> {
    const { tempPath } = this;
    try {
      // A pipe or a device: nothing to sync or rename.
      if (tempPath !== undefined) await promisify(fsync)(this.fd);
      await this.closeFile();
      this.check();
      if (this.aborted) throw new InterruptedError('interrupted');
      if (tempPath !== undefined) await rename(tempPath, this.finalPath);
    } catch (err) {
      throw err instanceof NewsError ? err : fileError('write', this.path, err, { failure: true });
    }
    if (tempPath !== undefined) live.delete(tempPath);
    this.done = true;
  }

  /**
   * Closes the descriptor, once, through the stream (destroy() closes it
   * even with autoClose off: closing it here too closed it twice, and a
   * second close can hit a descriptor reused meanwhile). Not while a
   * writeback still uses it.
   */
  private closeFile(): Promise<void> {
    this.closing ??= (async () => {
      await this.writeback;
      const { file } = this;
      if (file.closed) return;
      await new Promise<void>((resolve) => {
        file.once('close', () => resolve());
        if (!file.destroyed) file.destroy();
      });
    })();
    return this.closing;
  }

  async abort(): Promise<void> {
    if (this.aborted) return this.aborting;
    this.aborted = true;
    this.aborting = this.discardFile();
    return this.aborting;
  }

  private async discardFile(): Promise<void> {
    // Past the writing, the commit's fsync and rename are short: let them end.
    await this.syncing?.catch(() => undefined);
    if (this.done) return;
    this.discard();
    if (this.target !== this.file) (this.target as Writable).destroy();
    await this.closeFile();
    if (this.tempPath === undefined) return;
    await unlink(this.tempPath).catch(() => undefined);
    live.delete(this.tempPath);
  }

  protected override onError(err: Error): void {
    const code = (err as NodeJS.ErrnoException).code;
    super.onError(
      code === 'EPIPE' || err instanceof NewsError
        ? err
        : fileError('write', this.path, err, { failure: true }),
    );
  }
}
