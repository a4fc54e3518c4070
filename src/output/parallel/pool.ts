/**
 * The worker threads of `news convert`: started as soon as the input looks
 * big enough to share, told how to encode once the writer exists (`setup`),
 * then given tasks round-robin (chunks are of equal size); results come back
 * by id. A worker that dies fails every task still out.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EncoderSpec } from '../format-writer.js';
import type { LineMode } from '../line-reader.js';
import type { FormatName } from '../types.js';
import type { ChunkResult, ChunkTask, WorkerHint, WorkerSetup } from './protocol.js';
import { transferList } from './shared.js';

interface Waiting {
  resolve(result: ChunkResult): void;
  reject(error: Error): void;
}

/**
 * The worker's script: the build's one-file bundle of it and its libraries
 * (build/bundle.mjs; each worker is at work ~40 ms sooner than when it
 * loaded ~50 modules one by one), or the module itself without it.
 */
function workerUrl(): URL {
  const bundled = new URL('../../bundle/convert-worker.js', import.meta.url);
  return existsSync(fileURLToPath(bundled)) ? bundled : new URL('./worker.js', import.meta.url);
}

export class WorkerPool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private failure: Error | undefined;
  private closed = false;

  /** `format`: the writer's expected format, whose encoder the workers load while they wait. */
  constructor(size: number, format: FormatName | undefined) {
    const url = workerUrl();
    const workerData: WorkerHint = { format };
    this.workers = Array.from({ length: size }, () => {
      // A small young generation: workers allocate fast and keep little;
      // the default (48 MB) cost ~40 MB of RSS per worker for no speed. A
      // capped old generation: left to grow, V8 collected it so seldom that
      // Parquet's peak at 100k articles was ~20 MB higher (207 against 186
      // MB), for no speed either. A chunk a worker gets is at most 4 MB
      // (record-source.ts), so its records fit well within it.
      const worker = new Worker(url, {
        workerData,
        resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 },
      });
      worker.on('message', (result: ChunkResult) => {
        const waiting = this.waiting.get(result.id);
        this.waiting.delete(result.id);
        waiting?.resolve(result);
      });
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (!this.closed) this.fail(new Error(`a convert worker stopped (exit code ${code})`));
      });
      return worker;
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.waiting.values()) waiting.reject(this.failure);
    this.waiting.clear();
  }

  /** Tells every worker how to encode; before the first `run`. */
  setup(spec: EncoderSpec, byteLines: boolean): void {
    const setup: WorkerSetup = { spec, byteLines };
    for (const worker of this.workers) worker.postMessage(setup);
  }

  /**
   * Parses and encodes `bytes` on a worker; they come back as the result's
   * `input`, and must not be used until then (shared memory: the worker
   * reads them where they are; any other buffer is transferred). `spare`, a
   * page buffer the writer is done with, goes too, for the result's bytes.
   */
  run(bytes: Uint8Array, mode: LineMode, spare?: ArrayBufferLike): Promise<ChunkResult> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    const task: ChunkTask = { id, bytes, mode, spare };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.workers[id % this.workers.length]!.postMessage(task, transferList(bytes.buffer, spare));
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
