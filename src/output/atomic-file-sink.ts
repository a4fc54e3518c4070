/**
 * A file written atomically: bytes go to a temporary file beside the
 * destination (same directory, so the final rename stays on one file system
 * and is atomic), which is fsynced and renamed over the destination only when
 * the export succeeded. On failure, abort or Ctrl-C the temporary file is
 * removed and the destination is untouched. A `.gz` destination is gzipped.
 */
import { randomBytes } from 'node:crypto';
import { close, createWriteStream, fsync, open, unlinkSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { UsageError } from '../api/errors.js';
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

/** Resolves on 'finish' (the stream does not close: we fsync the handle after). */
function finishedWriting(stream: Writable): Promise<void> {
  if (stream.writableFinished) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => {
      stream.removeListener('finish', onFinish);
      reject(err);
    };
    const onFinish = (): void => {
      stream.removeListener('error', onError);
      resolve();
    };
    stream.once('finish', onFinish);
    stream.once('error', onError);
  });
}

export class AtomicFileSink extends StreamSink {
  private done = false;

  private constructor(
    target: Writable,
    private readonly file: Writable,
    private readonly fd: number,
    readonly path: string,
    readonly tempPath: string,
  ) {
    super(target);
    const listener = (err: Error): void => this.onError(err);
    target.on('error', listener);
    if (file !== target) file.on('error', listener);
  }

  static async open(destination: string): Promise<AtomicFileSink> {
    const path = resolve(destination);
    const dir = dirname(path);
    const temp = join(
      dir,
      `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    );
    let fd: number;
    try {
      fd = await promisify(open)(temp, 'wx', 0o666);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(`cannot write ${destination}: ${code ?? String(err)}`, {
        hint: code === 'ENOENT' ? `the directory ${dir} does not exist` : undefined,
      });
    }
    track(temp);
    // A plain fd rather than a FileHandle: a FileHandle cannot be closed while
    // a stream holds it, and we need it open after 'finish' to fsync.
    const file = createWriteStream(temp, { fd, autoClose: false, highWaterMark: 1024 * 1024 });
    let target: Writable = file;
    if (isGzipPath(path)) {
      const gzip = createGzip({ level: 6 });
      gzip.pipe(file);
      target = gzip;
    }
    return new AtomicFileSink(target, file, fd, path, temp);
  }

  async commit(): Promise<void> {
    if (this.done) return;
    await this.flush();
    const target = this.target as Writable;
    if (!target.writableEnded) target.end();
    await finishedWriting(this.file);
    this.check();
    await promisify(fsync)(this.fd);
    await this.closeFd();
    await rename(this.tempPath, this.path);
    live.delete(this.tempPath);
    this.done = true;
  }

  private fdOpen = true;
  private async closeFd(): Promise<void> {
    if (!this.fdOpen) return;
    this.fdOpen = false;
    await promisify(close)(this.fd);
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.discard();
    (this.target as Writable).destroy();
    this.file.destroy();
    await this.closeFd().catch(() => undefined);
    await unlink(this.tempPath).catch(() => undefined);
    live.delete(this.tempPath);
  }
}
