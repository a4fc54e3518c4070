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
 * and commit() remove the temporary file.
 *
 * The files of one process share one folder, `news-upload-PID-XXXXXX`,
 * removed when its last file goes. A process killed with kill -9 leaves it:
 * the next process that spools removes every such folder whose process is
 * gone (and those of versions that named them without the pid, once a day
 * old), so leftovers never pile up.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { StreamSink } from '../../sink.js';
import { NewsError } from '../../../api/errors.js';
import { processGone } from '../../atomic-file-sink.js';
import { fileProblem } from '../../file-errors.js';
import { type UploadOptions, gzipped, uploadObject } from './upload-sink.js';
import { parseObjectUrl } from './url.js';

/** Objects uploaded at once from their files: each holds up to two 8 MiB parts. */
export const UPLOADS_AT_ONCE = 4;

let running = 0;
const waiting: (() => void)[] = [];

/** Every spool folder starts so; then `PID-` and mkdtemp's six characters. */
export const SPOOL_PREFIX = 'news-upload-';
/** A folder named the old way (no pid) is taken for a leftover once it is this old. */
const UNNAMED_LEFTOVER_MS = 24 * 3600_000;

let swept = false;
let folder: Promise<string> | undefined;
let files = 0;
let next = 0;

/**
 * Removes the spool folders of processes that are gone, once per process.
 * Best effort: a folder that cannot be read or removed is no reason to fail.
 */
export async function sweepSpoolLeftovers(dir = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(SPOOL_PREFIX)) continue;
    const path = join(dir, name);
    const pid = /^(\d+)-[A-Za-z0-9]{6}$/.exec(name.slice(SPOOL_PREFIX.length))?.[1];
    try {
      if (pid !== undefined) {
        if (Number(pid) === process.pid || !processGone(Number(pid))) continue;
      } else if (Date.now() - (await stat(path)).mtimeMs < UNNAMED_LEFTOVER_MS) {
        continue;
      }
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/** A new file in this process's spool folder, made (after the sweep) on first use. */
async function spoolFile(url: string): Promise<string> {
  files++;
  try {
    if (folder === undefined) {
      const sweep = swept ? Promise.resolve() : sweepSpoolLeftovers().then(() => undefined);
      swept = true;
      folder = sweep.then(() => mkdtemp(join(tmpdir(), `${SPOOL_PREFIX}${process.pid}-`)));
      folder.catch(() => undefined);
    }
    return join(await folder, `${++next}`);
  } catch (error) {
    await releaseSpoolFile(undefined);
    throw localError(error, url);
  }
}

/** Removes a spool file; the folder goes with the last one. */
async function releaseSpoolFile(file: string | undefined): Promise<void> {
  if (file !== undefined) await rm(file, { force: true });
  files--;
  if (files > 0 || folder === undefined) return;
  const done = folder;
  folder = undefined;
  await done.then((path) => rm(path, { recursive: true, force: true })).catch(() => undefined);
}

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
    private readonly spooled: string,
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
    const spooled = await spoolFile(url);
    try {
      const file = createWriteStream(spooled, { flags: 'wx', mode: 0o600 });
      await new Promise<void>((ok, fail) => {
        file.once('open', () => ok());
        file.once('error', fail);
      });
      return new S3SpooledSink(gzipped(url, file), file, spooled, url, options);
    } catch (error) {
      await releaseSpoolFile(spooled);
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
      await this.release();
    }
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.discard();
    (this.target as Writable).destroy();
    this.file.destroy();
    await this.release();
  }

  private released = false;

  /** The temporary file goes once, whether the sink commits, fails or aborts. */
  private async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await releaseSpoolFile(this.spooled);
  }
}

/** The temporary file failed (a full disk): the line names the folder, not the store. */
function localError(error: unknown, url: string): Error {
  const { reason } = fileProblem('write', tmpdir(), error);
  return new NewsError(`cannot stage ${url} in ${tmpdir()} before its upload: ${reason}`, {
    hint: 'the partitions of a data set written to a store wait in the temporary folder until each is whole: point TMPDIR at a folder with room',
  });
}
