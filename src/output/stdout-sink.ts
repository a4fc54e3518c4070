/**
 * Standard output as a sink. EPIPE (the reader closed: `news search | head -1`)
 * marks the sink broken instead of throwing, so the export stops pulling
 * pages and ends quietly. What arrived is written: the export flushes every
 * page, and a failure flushes what is batched before the error is reported. stdout itself is never ended: the CLI may still
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

  /**
   * A failed or interrupted export to stdout keeps what arrived: the complete
   * records still batched are written out (a file, by contrast, is removed).
   */
  async abort(): Promise<void> {
    try {
      if (!this.isBroken && this.error === undefined) await this.flush();
    } catch {
      // Writing failed too: the export's own error is the one to report.
    }
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
