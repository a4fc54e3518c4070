/**
 * `s3://BUCKET/KEY` names. Cheap on purpose: the CLI asks `isS3Url` on every
 * `-o` and `--state`, and nothing of the AWS SDK may load for a local path.
 */
import { UsageError } from '../../../api/errors.js';

export const S3_SCHEME = 's3://';

export interface S3Location {
  readonly bucket: string;
  /** The object key (or a prefix, for a data set's root); no leading slash. */
  readonly key: string;
}

export function isS3Url(path: string | undefined): boolean {
  return path !== undefined && path.slice(0, S3_SCHEME.length).toLowerCase() === S3_SCHEME;
}

/** Bucket names as S3 accepts them (3–63 of a-z 0-9 . -), checked before anything is sent. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function parseS3Url(url: string): S3Location {
  const rest = url.slice(S3_SCHEME.length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  const key = slash === -1 ? '' : rest.slice(slash + 1);
  if (!BUCKET.test(bucket)) {
    throw new UsageError(`${url}: "${bucket}" is not a bucket name`, {
      hint: 'write s3://BUCKET/KEY, e.g. s3://my-bucket/news/today.parquet',
    });
  }
  return { bucket, key };
}

/** The object a single export writes: a key that names an object, not a folder. */
export function parseObjectUrl(url: string): S3Location {
  const location = parseS3Url(url);
  if (location.key === '' || location.key.endsWith('/')) {
    throw new UsageError(`${url} names a folder, not an object`, {
      hint: 'add the object name, e.g. s3://bucket/news/out.parquet',
    });
  }
  return location;
}

/**
 * `--state s3://…` names an object: `s3://acme-news` or `s3://acme-news/en/`
 * would put the state and its lock at odd keys, so they are refused naming
 * what the user typed.
 */
export function checkStateUrl(url: string): string {
  const { bucket, key } = parseS3Url(url);
  if (key === '' || key.endsWith('/')) {
    throw new UsageError(
      `--state ${url} names ${key === '' ? 'a bucket' : 'a folder'}, not an object`,
      { hint: `name the state object, e.g. --state s3://${bucket}/${key}news.state.json` },
    );
  }
  return url;
}

export function s3Url(location: S3Location): string {
  return `${S3_SCHEME}${location.bucket}/${location.key}`;
}

/** `s3://b/data/` + `x=1`, `part.parquet` → `s3://b/data/x=1/part.parquet` (no `.`/`..` handling: keys are literal). */
export function joinS3(base: string, ...parts: string[]): string {
  let out = base;
  for (const part of parts) {
    if (part === '') continue;
    out = `${out.endsWith('/') ? out : `${out}/`}${part.replace(/^\/+/, '')}`;
  }
  return out;
}

/** The folder part of an object URL: `s3://b/x/y.csv` → `s3://b/x/`. */
export function dirnameS3(url: string): string {
  const { bucket, key } = parseS3Url(url);
  const trimmed = key.endsWith('/') ? key.slice(0, -1) : key;
  const slash = trimmed.lastIndexOf('/');
  return `${S3_SCHEME}${bucket}/${slash === -1 ? '' : trimmed.slice(0, slash + 1)}`;
}

/** The last part of an object URL: `s3://b/x/y.csv` → `y.csv`. */
export function basenameS3(url: string): string {
  const { key } = parseS3Url(url);
  const trimmed = key.endsWith('/') ? key.slice(0, -1) : key;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}
