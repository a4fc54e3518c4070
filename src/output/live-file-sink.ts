/**
 * A file written as records arrive, for endless streams (`news stream -o
 * x.jsonl`): bytes go straight to the destination, each page is flushed as a
 * whole, and an interrupted run keeps every complete record already written.
 * (Exports with an end use AtomicFileSink instead: all or nothing.) A pipe,
 * a device or /dev/std* is opened for appending, as AtomicFileSink does, so
 * `-o /dev/stdout >> log` does not truncate the log. Used by `stream -o` and
 * `webhooks listen -o`.
 */
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import type { WriteStream } from 'node:fs';
import { UsageError } from '../api/errors.js';
import { resolveOutputTarget } from './atomic-file-sink.js';
import { StreamSink } from './sink.js';

export class LiveFileSink extends StreamSink {
  private closed = false;

  private constructor(
    private readonly file: WriteStream,
    readonly path: string,
  ) {
    super(file, true); // a file: done with a buffer once its write callback runs
    file.on('error', (err: Error) => this.onError(err));
  }

  static async open(destination: string): Promise<LiveFileSink> {
    const target = await resolveOutputTarget(destination);
    const path = target.kind === 'direct' ? target.path : resolve(destination);
    const flags = target.kind === 'direct' ? 'a' : 'w';
    const file = createWriteStream(path, { flags, mode: 0o666 });
    await new Promise<void>((ok, fail) => {
      file.once('open', () => ok());
      file.once('error', (err: NodeJS.ErrnoException) =>
        fail(new UsageError(`cannot write ${destination}: ${err.code ?? err.message}`)),
      );
    });
    return new LiveFileSink(file, path);
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
