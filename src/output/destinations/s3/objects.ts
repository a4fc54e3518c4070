/**
 * Small-object operations the unattended runs need beside the exports
 * themselves: the state and checkpoint files (read, replace), the lock
 * (conditional create and replace), publishing a staged object (server-side
 * copy, then delete) and clearing a staging prefix. Every failure becomes
 * the one-line error of errors.ts.
 */
import type { ListObjectsV2CommandOutput } from '@aws-sdk/client-s3';
import { s3 } from './client.js';
import { isMissingObject, isPreconditionFailed, storeError } from './errors.js';
import { parseObjectUrl, parseS3Url, s3Url } from './url.js';

export interface StoredText {
  readonly text: string;
  readonly etag: string | undefined;
  readonly lastModified: Date | undefined;
}

/** The object's text, or undefined when there is none. */
export async function getText(url: string): Promise<StoredText | undefined> {
  const { bucket, key } = parseObjectUrl(url);
  const { client, sdk } = await s3();
  try {
    const out = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
    const text = (await out.Body?.transformToString('utf8')) ?? '';
    return { text, etag: out.ETag, lastModified: out.LastModified };
  } catch (error) {
    if (isMissingObject(error)) return undefined;
    throw await storeError(error, 'read', url);
  }
}

export type PutCondition = { ifNoneMatch: '*' } | { ifMatch: string };

/**
 * Writes the object whole (a PUT is atomic: readers see the old or the new).
 * With a condition, returns undefined when the store refused it (412, or
 * 404 for `If-Match` on an object that is gone).
 */
export async function putText(
  url: string,
  text: string,
  condition?: PutCondition,
): Promise<string | undefined> {
  const { bucket, key } = parseObjectUrl(url);
  const { client, sdk } = await s3();
  try {
    const out = await client.send(
      new sdk.PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: text,
        ContentType: 'application/json',
        ...(condition === undefined
          ? {}
          : 'ifNoneMatch' in condition
            ? { IfNoneMatch: condition.ifNoneMatch }
            : { IfMatch: condition.ifMatch }),
      }),
    );
    return out.ETag ?? '';
  } catch (error) {
    // Refused; `If-Match` on an object gone since is refused as well (S3 answers 404).
    if (condition !== undefined && isPreconditionFailed(error)) return undefined;
    if (condition !== undefined && 'ifMatch' in condition && isMissingObject(error)) {
      return undefined;
    }
    throw await storeError(error, condition === undefined ? 'write' : 'lock', url);
  }
}

const PROBE_TEXT = `${JSON.stringify({
  written_by: 'news',
  why: 'a conditional PUT (If-None-Match: *) on this object tells whether the store refuses one on an existing key, as the lock beside it needs (docs/CRON.md, "The lock in a store"); it may be removed',
})}\n`;

/**
 * Whether the store refuses `PUT If-None-Match: *` on a key that exists, as
 * S3, MinIO and R2 do (412), or writes it anyway, as s3rver, older MinIO and
 * some gateways do. The probe object is left in place, so once it exists
 * this is one request: refused, or written over (then the store ignores the
 * condition). Its first PUT cannot tell (the key may not have existed), so a
 * written one is tried again.
 */
export async function honoursConditionalWrites(probeUrl: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    if ((await putText(probeUrl, PROBE_TEXT, { ifNoneMatch: '*' })) === undefined) return true;
  }
  return false;
}

export async function exists(url: string): Promise<boolean> {
  const { bucket, key } = parseObjectUrl(url);
  const { client, sdk } = await s3();
  try {
    await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if (isMissingObject(error)) return false;
    throw await storeError(error, 'read', url);
  }
}

/** Deletes the object; one already gone is no error. */
export async function remove(url: string): Promise<void> {
  const { bucket, key } = parseObjectUrl(url);
  const { client, sdk } = await s3();
  try {
    await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
  } catch (error) {
    if (!isMissingObject(error)) throw await storeError(error, 'remove', url);
  }
}

/**
 * Publishes a staged object under its final key: a server-side copy, which
 * the store makes visible whole, then the staged one is deleted. Run again
 * after a crash anywhere in it, it ends the same way. Returns false when
 * there was nothing staged (published before).
 */
export async function publish(staged: string, final: string): Promise<boolean> {
  const from = parseObjectUrl(staged);
  const to = parseObjectUrl(final);
  const { client, sdk } = await s3();
  try {
    await client.send(
      new sdk.CopyObjectCommand({
        Bucket: to.bucket,
        Key: to.key,
        CopySource: `${from.bucket}/${copySourceKey(from.key)}`,
      }),
    );
  } catch (error) {
    if (isMissingObject(error)) return false;
    throw await storeError(error, 'publish', final);
  }
  await remove(staged);
  return true;
}

/**
 * The key as `x-amz-copy-source` carries it: URL-encoded, but keeping `=`
 * and `/` as they are (hive folder names), which every store reads the same.
 */
function copySourceKey(key: string): string {
  return encodeURI(key).replace(/[?#+]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Keys under a prefix, as URLs. */
export async function* list(prefixUrl: string): AsyncGenerator<string> {
  const { bucket, key } = parseS3Url(prefixUrl);
  const { client, sdk } = await s3();
  let token: string | undefined;
  do {
    let out: ListObjectsV2CommandOutput;
    try {
      out = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: key, ContinuationToken: token }),
      );
    } catch (error) {
      throw await storeError(error, 'list', prefixUrl);
    }
    for (const object of out.Contents ?? []) {
      if (object.Key !== undefined) yield s3Url({ bucket, key: object.Key });
    }
    token = out.IsTruncated === true ? out.NextContinuationToken : undefined;
  } while (token !== undefined);
}

/**
 * Removes everything under a prefix: its objects, and the multipart uploads
 * a killed run left incomplete there (a store that cannot list those, such
 * as s3rver, is skipped: its lifecycle rule has to do it).
 */
export async function removePrefix(prefixUrl: string): Promise<void> {
  for await (const url of list(prefixUrl)) await remove(url);
  const { bucket, key } = parseS3Url(prefixUrl);
  const { client, sdk } = await s3();
  let uploads: { Key?: string | undefined; UploadId?: string | undefined }[];
  try {
    const out = await client.send(
      new sdk.ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }),
    );
    uploads = out.Uploads ?? [];
  } catch {
    return;
  }
  for (const upload of uploads) {
    await client
      .send(
        new sdk.AbortMultipartUploadCommand({
          Bucket: bucket,
          Key: upload.Key,
          UploadId: upload.UploadId,
        }),
      )
      .catch(() => undefined);
  }
}

/**
 * Fails early, before a page is fetched, when the bucket is missing or the
 * store cannot be reached. A 403 is let through: a role may write objects
 * without the right to look at the bucket.
 */
export async function checkBucket(url: string): Promise<void> {
  const { bucket } = parseS3Url(url);
  const { client, sdk } = await s3();
  try {
    await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }));
  } catch (error) {
    const metadata = (error as { $metadata?: { httpStatusCode?: number; requestId?: string } })
      .$metadata;
    const status = metadata?.httpStatusCode;
    if (status === 403 || status === 301) return;
    // A HEAD answer has no body, so no code: a 404 of the bucket is NoSuchBucket (request id kept).
    throw await storeError(
      status === 404
        ? Object.assign(new Error(), {
            name: 'NoSuchBucket',
            Code: 'NoSuchBucket',
            $metadata: metadata,
          })
        : error,
      'write',
      url,
    );
  }
}
