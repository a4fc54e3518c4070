/**
 * An export into an S3 object: the format writer's bytes stream into a
 * multipart upload (@aws-sdk/lib-storage), parts of 8 MiB, two in flight, so
 * memory stays flat whatever the size. The object exists only once the
 * upload is completed in commit(): a failure, Ctrl-C or kill -9 before that
 * leaves nothing at the key (an upload killed with the process stays
 * incomplete and invisible until a lifecycle rule or the next run removes
 * it). abort() ends the body with an error, never with end(): an ended body
 * would be completed as a whole object. lib-storage then aborts the upload.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Upload } from '@aws-sdk/lib-storage';
import { isGzipPath } from '../../formats.js';
import { StreamSink } from '../../sink.js';
import { s3 } from './client.js';
import { storeError } from './errors.js';
import { parseObjectUrl } from './url.js';

export const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

export interface UploadOptions {
  /** Bytes the store has taken so far (after each part). */
  onProgress?: ((bytes: number) => void) | undefined;
}

const CONTENT_TYPE: Record<string, string> = {
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  xml: 'application/xml',
  rss: 'application/rss+xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  parquet: 'application/vnd.apache.parquet',
};

function contentType(key: string): string {
  if (isGzipPath(key)) return 'application/gzip';
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPE[ext] ?? 'application/octet-stream';
}

/**
 * Starts uploading `body` to the object at `url` (multipart once it passes
 * a part); `done` settles when the object is complete, or fails with the
 * store's error line (storeError). A body that fails aborts the upload.
 */
export async function uploadObject(
  url: string,
  body: Readable,
  options: UploadOptions = {},
): Promise<{ done: Promise<void> }> {
  const { bucket, key } = parseObjectUrl(url);
  const { client } = await s3();
  const { Upload } = await import('@aws-sdk/lib-storage');
  const upload: Upload = new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: body, ContentType: contentType(key) },
    partSize: PART_SIZE,
    queueSize: PARTS_IN_FLIGHT,
    leavePartsOnError: false,
  });
  if (options.onProgress !== undefined) {
    const report = options.onProgress;
    upload.on('httpUploadProgress', (p) => {
      if (typeof p.loaded === 'number') report(p.loaded);
    });
  }
  const done = upload.done().then(
    () => undefined,
    async (error: unknown) => {
      throw await storeError(error, 'write', url);
    },
  );
  return { done };
}

export class S3UploadSink extends StreamSink {
  private done = false;

  private constructor(
    target: Writable,
    private readonly body: PassThrough,
    private readonly finished: Promise<unknown>,
    readonly path: string,
  ) {
    super(target);
    const listener = (err: Error): void => this.onError(err);
    target.on('error', listener);
    if (body !== target) body.on('error', listener);
  }

  static async open(url: string, options: UploadOptions = {}): Promise<S3UploadSink> {
    const body = new PassThrough({ highWaterMark: 1024 * 1024 });
    const target = gzipped(url, body);
    const sink: { current?: S3UploadSink } = {};
    const finished = (await uploadObject(url, body, options)).done.catch((error: Error) => {
      // Writes waiting for room must not wait for a reader that has gone.
      sink.current?.fail(error);
      throw error;
    });
    finished.catch(() => undefined);
    sink.current = new S3UploadSink(target, body, finished, url);
    return sink.current;
  }

  private fail(error: Error): void {
    this.error ??= error;
    this.body.destroy();
  }

  async commit(): Promise<void> {
    if (this.done) return;
    await this.flush();
    const target = this.target as Writable;
    if (!target.writableEnded) target.end();
    await this.finished;
    this.check();
    this.done = true;
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.discard();
    const reason = new Error('export aborted');
    (this.target as Writable).destroy(reason);
    this.body.destroy(reason);
    // The upload fails on the broken body and aborts the multipart upload on its way out.
    await this.finished.catch(() => undefined);
  }
}

/** What the format writer writes into: the body itself, or gzip in front of it for a `.gz` key. */
export function gzipped(url: string, body: Writable): Writable {
  if (!isGzipPath(url)) return body;
  const gzip = createGzip({ level: 6 });
  gzip.pipe(body);
  return gzip;
}
