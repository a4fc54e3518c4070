/**
 * A file written as records arrive, for endless streams (`news stream -o
 * x.jsonl`): bytes go straight to the destination, each page is flushed as a
 * whole, and an interrupted run keeps every complete record already written.
 * (Exports with an end use AtomicFileSink instead: all or nothing.) A pipe,
 * a device or /dev/std* is opened for appending, as AtomicFileSink does, so
 * `-o /dev/stdout >> log` does not truncate the log; so is any file when the
 * caller continues it (`stream --state`). Used by `stream -o` and
 * `webhooks listen -o`.
 */
import { createWriteStream } from 'node:fs';
import { open as openFile, truncate } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { WriteStream } from 'node:fs';
import { UsageError } from '../api/errors.js';
import { resolveOutputTarget } from './atomic-file-sink.js';
import { fileError } from './file-errors.js';
import { type RecordEnds, completeLength } from './complete-records.js';
import { storeOf } from './destinations/registry.js';
import { StreamSink } from './sink.js';

/** What a file being continued holds: enough to check its header and cut a torn last record. */
export interface ExistingFile {
  /** Where its last complete record ends: what is kept. */
  readonly size: number;
  /** Its first bytes (at most HEAD_BYTES). */
  readonly head: Buffer;
  /** Bytes of a record cut short by a crash after that, removed before this run's records (dropTornRecord). */
  readonly cut: number;
}

const HEAD_BYTES = 64 * 1024;

export class LiveFileSink extends StreamSink {
  private closed = false;

  private constructor(
    private readonly file: WriteStream,
    readonly path: string,
    /** Set when an existing file is continued. */
    readonly existing: ExistingFile | undefined,
  ) {
    super(file, true); // a file: done with a buffer once its write callback runs
    file.on('error', (err: Error) =>
      this.onError(
        (err as NodeJS.ErrnoException).code === 'EPIPE'
          ? err
          : fileError('write', path, err, { failure: true }),
      ),
    );
  }

  /**
   * Fails as `open` would (exit 2, the reason) without creating or
   * truncating anything: a stream checks its output before it connects and
   * opens it only once the server accepted the connection.
   */
  static async check(destination: string): Promise<void> {
    refuseObjectStore(destination);
    await storeOf(destination).checkWritable(destination);
  }

  /**
   * Opens for writing from the start, or with `append` after the last
   * complete record the file holds (records end as `ends` says; a record
   * cut short by a crash is removed first).
   */
  static async open(
    destination: string,
    options: { append?: boolean; ends?: RecordEnds } = {},
  ): Promise<LiveFileSink> {
    refuseObjectStore(destination);
    const target = await resolveOutputTarget(destination);
    const path = target.kind === 'direct' ? target.path : resolve(destination);
    const continues = target.kind === 'atomic' && options.append === true;
    const existing =
      continues && target.mode !== undefined
        ? await readExisting(path, options.ends ?? 'line').catch((err: unknown) => {
            throw fileError('read', destination, err);
          })
        : undefined;
    const flags = target.kind === 'direct' || continues ? 'a' : 'w';
    const file = createWriteStream(path, { flags, mode: 0o666 });
    await new Promise<void>((ok, fail) => {
      file.once('open', () => ok());
      file.once('error', (err: NodeJS.ErrnoException) =>
        fail(fileError('write', destination, err)),
      );
    });
    return new LiveFileSink(
      file,
      path,
      continues ? (existing ?? { size: 0, head: Buffer.alloc(0), cut: 0 }) : undefined,
    );
  }

  /**
   * Removes the record a crash cut short at the end of a continued file
   * (`existing.cut` bytes), before anything is written: the file is open
   * for appending, so what comes next starts where the last whole record ended.
   */
  async dropTornRecord(): Promise<void> {
    if (this.existing === undefined || this.existing.cut === 0) return;
    await truncate(this.path, this.existing.size);
  }

  /** Flushed means handed to the file: a reader of the file sees each page or delivery at once. */
  override async flush(): Promise<void> {
    await super.flush();
    await new Promise<void>((done) => this.file.write('', () => done()));
    this.check();
  }

  /** Flushes, then closes the file (what was written is the output). */
  async commit(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    await this.close();
    this.check();
  }

  /** Keeps what was written: only whole pages were ever handed over. */
  async abort(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } catch {
      // The run's own error is the one to report.
    }
    await this.close();
  }

  private close(): Promise<void> {
    this.closed = true;
    return new Promise((done) => {
      this.file.end(() => done());
      this.file.once('error', () => done());
    });
  }
}

/** Where the file's last complete record ends, and its first bytes for the header check. */
async function readExisting(path: string, ends: RecordEnds): Promise<ExistingFile> {
  const complete = await completeLength(path, ends);
  const handle = await openFile(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(complete, HEAD_BYTES));
    await handle.read(head, 0, head.length, 0);
    return { size: complete, head, cut: size - complete };
  } finally {
    await handle.close();
  }
}

/** A live file grows record by record; an object in a store is written whole. */
function refuseObjectStore(destination: string): void {
  if (storeOf(destination).appendable) return;
  throw new UsageError(`cannot append to ${destination}: an object in a store is written whole`, {
    hint: 'write to a local file, and upload it afterwards',
  });
}
