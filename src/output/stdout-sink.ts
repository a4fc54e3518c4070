/**
 * Standard output as a sink. EPIPE (the reader closed: `news search | head -1`)
 * marks the sink broken instead of throwing, so the export stops pulling
 * pages and ends quietly. stdout itself is never ended: the CLI may still
 * print after us, and Node refuses to close fd 1 anyway.
 */
import { StreamSink } from './sink.js';

export class StdoutSink extends StreamSink {
  readonly path = undefined;
  private readonly listener = (err: Error): void => this.onError(err);

  constructor(target: NodeJS.WritableStream) {
    super(target);
    target.on('error', this.listener);
  }

  async commit(): Promise<void> {
    await this.flush();
    await this.settled();
    this.release();
  }

  async abort(): Promise<void> {
    this.discard();
    this.release();
  }

  /** Waits until what we wrote has been handed to the OS, so an EPIPE shows up before we report success. */
  private settled(): Promise<void> {
    const t = this.target as NodeJS.WritableStream & { writableLength?: number };
    if (this.isBroken || (t.writableLength ?? 0) === 0) return Promise.resolve();
    return new Promise((resolve) => {
      t.write('', () => resolve());
    });
  }

  private release(): void {
    // After EPIPE the stream may still emit a queued error: keep a listener so it cannot crash the process.
    if (this.isBroken) return;
    this.target.removeListener('error', this.listener);
  }
}
