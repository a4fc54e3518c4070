/**
 * Where the bytes of an export go. A format writes through `write()`, which
 * batches small pieces into ~256 KB chunks and waits for 'drain' when the
 * destination is full, so memory stays bounded whatever the speed of the
 * reader on the other side (a pipe, a slow disk, gzip).
 */
import { Writable } from 'node:stream';

const BATCH = 256 * 1024;

export interface Sink {
  /** Queues bytes; resolves once they may be followed by more (backpressure). */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Writes out what is batched and waits until the destination took it. */
  flush(): Promise<void>;
  /** A Writable that forwards into this sink, for libraries that pipe (exceljs). Never ends the sink. */
  asWritable(): Writable;
  /** True once the reader went away (EPIPE on stdout): stop producing, quietly. */
  readonly broken: boolean;
  /** Finishes the destination: flush, end, fsync, rename for files. */
  commit(): Promise<void>;
  /** Throws away what was written: for files, removes the temporary file. Idempotent. */
  abort(): Promise<void>;
  /** The final path for file sinks. */
  readonly path: string | undefined;
}

/** A sink over one Node Writable; subclasses decide what commit and abort mean. */
export abstract class StreamSink implements Sink {
  protected parts: (string | Uint8Array)[] = [];
  protected size = 0;
  protected error: Error | undefined;
  protected isBroken = false;
  abstract readonly path: string | undefined;

  constructor(protected readonly target: NodeJS.WritableStream) {}

  get broken(): boolean {
    return this.isBroken;
  }

  /** Called by subclasses from the target's 'error' listener. */
  protected onError(err: Error): void {
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') this.isBroken = true;
    else this.error ??= err;
  }

  protected check(): void {
    if (this.error !== undefined) throw this.error;
  }

  write(chunk: string | Uint8Array): Promise<void> {
    this.check();
    if (this.isBroken) return Promise.resolve();
    this.parts.push(chunk);
    this.size += chunk.length;
    return this.size >= BATCH ? this.flush() : Promise.resolve();
  }

  async flush(): Promise<void> {
    this.check();
    if (this.parts.length === 0 || this.isBroken) {
      this.parts = [];
      this.size = 0;
      return;
    }
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    const data =
      parts.length === 1
        ? parts[0]!
        : parts.every((p) => typeof p === 'string')
          ? parts.join('')
          : Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    const ok = this.target.write(data);
    if (!ok) await this.drained();
    this.check();
  }

  /** Resolves on 'drain', or when the target fails or closes (never hangs on EPIPE). */
  protected drained(): Promise<void> {
    const t = this.target;
    return new Promise((resolve) => {
      const done = (): void => {
        t.removeListener('drain', done);
        t.removeListener('error', done);
        t.removeListener('close', done);
        resolve();
      };
      t.on('drain', done);
      t.on('error', done);
      t.on('close', done);
    });
  }

  asWritable(): Writable {
    const w = new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        this.write(chunk).then(() => cb(), cb);
      },
      final: (cb) => {
        this.flush().then(() => cb(), cb);
      },
    });
    // Failures are recorded on the sink itself and surface from write/commit;
    // a library writing here after an abort must not crash the process.
    w.on('error', () => undefined);
    return w;
  }

  abstract commit(): Promise<void>;
  abstract abort(): Promise<void>;
}
