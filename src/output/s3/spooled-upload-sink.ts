/**
 * An S3 object written among many open at once (the partitions of a
 * `--partition-by` data set): its bytes go to a local temporary file, and
 * the object is uploaded from that file once whole, in commit(), a few
 * uploads at a time in the process. A streaming upload (upload-sink.ts)
 * holds a part of every open object in memory until it fills (8 MiB, two in
 * flight), so hundreds of open partitions grew memory with the data; on
 * disk, memory stays what the same export into a local folder takes, and
 * the temporary files take what the data set does (in the OS temp folder,
 * TMPDIR). Nothing exists at the key until the upload completes; abort()
 * and commit() remove the temporary file (a kill -9 leaves it in TMPDIR).
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { StreamSink } from '../sink.js';
import { NewsError } from '../../api/errors.js';
import { type UploadOptions, gzipped, uploadObject } from './upload-sink.js';
import { parseObjectUrl } from './url.js';

/** Objects uploaded at once from their files: each holds up to two 8 MiB parts. */
export const UPLOADS_AT_ONCE = 4;

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `task` when fewer than UPLOADS_AT_ONCE uploads are going. */
export async function queued<T>(task: () => Promise<T>): Promise<T> {
  if (running >= UPLOADS_AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    return await task();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export class S3SpooledSink extends StreamSink {
  private done = false;

  private constructor(
    target: Writable,
    private readonly file: WriteStream,
    private readonly folder: string,
    readonly path: string,
    private readonly options: UploadOptions,
  ) {
    super(target, true); // a file: done with a buffer once its write callback runs
    const listener = (err: Error): void => this.onError(localError(err, path));
    target.on('error', listener);
    if (file !== target) file.on('error', listener);
  }

  static async open(url: string, options: UploadOptions = {}): Promise<S3SpooledSink> {
    parseObjectUrl(url);
    const folder = await mkdtemp(join(tmpdir(), 'news-upload-')).catch((error: unknown) => {
      throw localError(error, url);
    });
    try {
      const file = createWriteStream(join(folder, 'object'), { flags: 'wx', mode: 0o600 });
      await new Promise<void>((ok, fail) => {
        file.once('open', () => ok());
        file.once('error', fail);
      });
      return new S3SpooledSink(gzipped(url, file), file, folder, url, options);
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw localError(error, url);
    }
  }

  /** Writes the file out, then uploads it whole; the temporary file goes either way. */
  async commit(): Promise<void> {
    if (this.done) return;
    try {
      await this.flush();
      await new Promise<void>((closed) => {
        this.file.once('close', () => closed());
        (this.target as Writable).end();
      });
      this.check();
      const path = this.file.path as string;
      await queued(
        async () => (await uploadObject(this.path, createReadStream(path), this.options)).done,
      );
      this.done = true;
    } finally {
      await rm(this.folder, { recursive: true, force: true });
    }
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.discard();
    (this.target as Writable).destroy();
    this.file.destroy();
    await rm(this.folder, { recursive: true, force: true });
  }
}

/** The temporary file failed (a full disk): the line names the folder, not the store. */
function localError(error: unknown, url: string): Error {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new NewsError(`cannot stage ${url} in ${tmpdir()} before its upload (${code})`, {
    hint: 'the partitions of a data set written to a store wait in the temporary folder until each is whole: point TMPDIR at a folder with room',
  });
}
