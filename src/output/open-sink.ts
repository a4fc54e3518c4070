/**
 * The sink of an export with an end, for a destination named by `-o`: a
 * local file written atomically, or an S3 object uploaded whole. The S3 code
 * (and the AWS SDK under it) is imported only when an `s3://` name asks for it.
 */
import { AtomicFileSink } from './atomic-file-sink.js';
import { isS3Url } from './s3/url.js';
import type { Sink } from './sink.js';

export interface FileSinkOptions {
  /** Bytes an upload has sent so far (S3 only: a local file reports nothing). */
  onUploaded?: ((bytes: number) => void) | undefined;
}

export async function openFileSink(
  destination: string,
  options: FileSinkOptions = {},
): Promise<Sink> {
  if (isS3Url(destination)) {
    const { S3UploadSink } = await import('./s3/upload-sink.js');
    return S3UploadSink.open(destination, { onProgress: options.onUploaded });
  }
  return AtomicFileSink.open(destination);
}
