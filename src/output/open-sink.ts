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
  /**
   * S3 only: one of many objects open at once (a data set's partitions),
   * written to a local temporary file and uploaded once whole
   * (s3/spooled-upload-sink.ts), so memory does not grow with them.
   */
  uploadWhole?: boolean | undefined;
}

export async function openFileSink(
  destination: string,
  options: FileSinkOptions = {},
): Promise<Sink> {
  if (isS3Url(destination)) {
    const upload = { onProgress: options.onUploaded };
    if (options.uploadWhole === true) {
      const { S3SpooledSink } = await import('./s3/spooled-upload-sink.js');
      return S3SpooledSink.open(destination, upload);
    }
    const { S3UploadSink } = await import('./s3/upload-sink.js');
    return S3UploadSink.open(destination, upload);
  }
  return AtomicFileSink.open(destination);
}
