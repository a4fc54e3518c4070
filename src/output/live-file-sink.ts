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
import { constants, createWriteStream } from 'node:fs';
import { access, open as openFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { WriteStream } from 'node:fs';
import { UsageError } from '../api/errors.js';
import { resolveOutputTarget } from './atomic-file-sink.js';
import { isS3Url } from './s3/url.js';
import { StreamSink } from './sink.js';

/** What a file being continued already holds: enough to check its header and its last line. */
export interface ExistingFile {
  readonly size: number;
  /** Its first bytes (at most HEAD_BYTES). */
  readonly head: Buffer;
  /** Whether it ends with a line end (or is empty): the next record starts a line. */
  readonly endsWithNewline: boolean;
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
    file.on('error', (err: Error) => this.onError(err));
  }

  /**
   * Fails as `open` would (exit 2, the reason) without creating or
   * truncating anything: a stream checks its output before it connects and
   * opens it only once the server accepted the connection.
   */
  static async check(destination: string): Promise<void> {
    refuseObjectStore(destination);
    const target = await resolveOutputTarget(destination);
    if (target.kind === 'direct') return;
    const existing = target.mode !== undefined;
    try {
      await access(existing ? target.path : dirname(target.path), constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      throw new UsageError(`cannot write ${destination}: ${code}`);
    }
  }

  /** Opens for writing from the start, or with `append` after what the file holds. */
  static async open(
    destination: string,
    options: { append?: boolean } = {},
  ): Promise<LiveFileSink> {
    refuseObjectStore(destination);
    const target = await resolveOutputTarget(destination);
    const path = target.kind === 'direct' ? target.path : resolve(destination);
    const continues = target.kind === 'atomic' && options.append === true;
    const flags = target.kind === 'direct' || continues ? 'a' : 'w';
    const file = createWriteStream(path, { flags, mode: 0o666 });
    await new Promise<void>((ok, fail) => {
      file.once('open', () => ok());
      file.once('error', (err: NodeJS.ErrnoException) =>
        fail(new UsageError(`cannot write ${destination}: ${err.code ?? err.message}`)),
      );
    });
    return new LiveFileSink(file, path, continues ? await readExisting(path) : undefined);
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

async function readExisting(path: string): Promise<ExistingFile> {
  const handle = await openFile(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, HEAD_BYTES));
    await handle.read(head, 0, head.length, 0);
    const last = Buffer.alloc(size > 0 ? 1 : 0);
    if (size > 0) await handle.read(last, 0, 1, size - 1);
    return { size, head, endsWithNewline: size === 0 || last[0] === 0x0a };
  } finally {
    await handle.close();
  }
}

/** A live file grows record by record; an object in a store is written whole. */
function refuseObjectStore(destination: string): void {
  if (!isS3Url(destination)) return;
  throw new UsageError(`cannot append to ${destination}: an object in a store is written whole`, {
    hint: 'write to a local file, and upload it afterwards',
  });
}
