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
/** Text is encoded, and bytes copied, into staging buffers this big; BATCH of it is written at a time. */
const STAGE = 2 * BATCH;
/** Staging buffers kept for use again once written (file sinks). */
const SPARE_STAGES = 8;

export interface Sink {
  /** Queues bytes; resolves once they may be followed by more (backpressure). */
  write(chunk: string | Uint8Array): Promise<void>;
  /**
   * True when write() copies what it is given: the caller may change or reuse
   * a chunk as soon as write() returns (convert's workers reuse page buffers).
   */
  readonly copiesWrites?: boolean;
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
  /**
   * True once commit() is past its point of no return (a file renamed into
   * place): an abort() after it changed nothing. Sinks without one leave it out.
   */
  readonly committed?: boolean;
  /** The final path for file sinks. */
  readonly path: string | undefined;
}

/**
 * A sink over one Node Writable; subclasses decide what commit and abort mean.
 * Strings are encoded with `encodeInto` straight into a staging buffer (no
 * joined string, no `Buffer.from`, which measures the string first: about
 * twice as fast on non-ASCII text), and bytes are copied into it, so a
 * caller may reuse its chunk at once. A file sink (`reuseStages`) uses its
 * staging buffers again once the file has taken them: buffers of every size
 * made and freed for each page left the process's malloc arenas fragmented,
 * growing all through a long export. Other targets (stdout, which may be
 * any Writable and may keep what it is given) get a fresh buffer each time.
 */
export abstract class StreamSink implements Sink {
  readonly copiesWrites = true;
  /** Staging buffers' filled parts, waiting for flush. */
  private parts: Buffer[] = [];
  private size = 0;
  private stage: Buffer = Buffer.allocUnsafeSlow(STAGE);
  private used = 0;
  private readonly spareStages: Buffer[] = [];
  protected error: Error | undefined;
  protected isBroken = false;
  abstract readonly path: string | undefined;

  constructor(
    protected readonly target: NodeJS.WritableStream,
    private readonly reuseStages = false,
  ) {}

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
    else this.copy(chunk);
    return this.size + this.used >= BATCH ? this.flush() : Promise.resolve();
  }

  /** UTF-8 into the staging buffers; lone surrogates become U+FFFD. */
  private encode(s: string): void {
    let rest = s;
    while (rest.length * 3 > STAGE - this.used) {
      // encodeInto writes whole characters only, as many as fit.
      const { read, written } = encoder.encodeInto(rest, this.stage.subarray(this.used));
      this.used += written;
      this.seal();
      rest = rest.slice(read);
    }
    this.used += encoder.encodeInto(rest, this.stage.subarray(this.used)).written;
  }

  private copy(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      const n = Math.min(bytes.length - at, STAGE - this.used);
      this.stage.set(bytes.subarray(at, at + n), this.used);
      this.used += n;
      at += n;
      if (this.used === STAGE) this.seal();
    }
  }

  /** Moves the staged bytes to `parts`; more go to another buffer (the target may still hold this one). */
  private seal(): void {
    if (this.used === 0) return;
    this.parts.push(this.stage.subarray(0, this.used));
    this.size += this.used;
    this.stage = this.spareStages.pop() ?? Buffer.allocUnsafeSlow(STAGE);
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
    let ok = true;
    for (const part of parts) {
      ok = this.target.write(part, this.reuseStages ? () => this.reuse(part) : undefined);
    }
    if (!ok) await this.drained();
    this.check();
  }

  /** A staging buffer the target has written (or failed to): ready for more. */
  private reuse(part: Buffer): void {
    if (this.spareStages.length < SPARE_STAGES) this.spareStages.push(Buffer.from(part.buffer));
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
