/**
 * Where the bytes of an export go. A format writes through `write()`, which
 * batches small pieces into ~256 KB chunks and waits for 'drain' when the
 * destination is full, so memory stays bounded whatever the speed of the
 * reader on the other side (a pipe, a slow disk, gzip).
 */
import { Writable } from 'node:stream';

/** Writers hand the sink strings of about this many characters (or bytes). */
export const BATCH = 256 * 1024;
const encoder = new TextEncoder();
/** Text is encoded straight into a staging buffer this big; BATCH of it is written at a time. */
const STAGE = 2 * BATCH;

/** UTF-8 bytes of a string too big for the staging buffer. Lone surrogates become U+FFFD. */
function utf8(s: string): Uint8Array {
  const bytes = Buffer.allocUnsafeSlow(s.length * 3);
  return bytes.subarray(0, encoder.encodeInto(s, bytes).written);
}

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
  private parts: Uint8Array[] = [];
  private size = 0;
  // Strings are encoded with `encodeInto` straight into `stage`: no joined
  // string, no `Buffer.from` (which measures the string first, then encodes);
  // about twice as fast on non-ASCII text.
  private stage = Buffer.allocUnsafeSlow(STAGE);
  private used = 0;
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

  /** Drops what is batched and not yet written. */
  protected discard(): void {
    this.parts = [];
    this.size = 0;
    this.used = 0;
  }

  write(chunk: string | Uint8Array): Promise<void> {
    this.check();
    if (this.isBroken) return Promise.resolve();
    if (typeof chunk === 'string') this.encode(chunk);
    else {
      this.seal();
      this.parts.push(chunk);
      this.size += chunk.length;
    }
    return this.size + this.used >= BATCH ? this.flush() : Promise.resolve();
  }

  private encode(s: string): void {
    const most = s.length * 3;
    if (this.used + most > STAGE) {
      this.seal();
      if (most > STAGE) {
        const bytes = utf8(s);
        this.parts.push(bytes);
        this.size += bytes.length;
        return;
      }
    }
    this.used += encoder.encodeInto(s, this.stage.subarray(this.used)).written;
  }

  /** Moves the staged bytes to `parts`; the next text goes to a fresh buffer (the target may still hold this one). */
  private seal(): void {
    if (this.used === 0) return;
    this.parts.push(this.stage.subarray(0, this.used));
    this.size += this.used;
    this.stage = Buffer.allocUnsafeSlow(STAGE);
    this.used = 0;
  }

  async flush(): Promise<void> {
    this.check();
    this.seal();
    if (this.parts.length === 0 || this.isBroken) {
      this.discard();
      return;
    }
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    const ok = this.target.write(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
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
