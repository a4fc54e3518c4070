/**
 * The one S3 client of the process, made on first use of an `s3://` path
 * (the SDK costs ~200 ms to load: `--help` and local exports never pay it).
 *
 * Configuration is the SDK's default chain: credentials from the environment,
 * the shared config and credentials files, `AWS_PROFILE`, SSO or an instance
 * role; the region likewise. `AWS_ENDPOINT_URL_S3` (else `AWS_ENDPOINT_URL`)
 * names another store (MinIO, R2, Ceph, GCS interoperability), addressed
 * path-style since such stores rarely resolve bucket host names. With no
 * region anywhere, `us-east-1` is assumed and S3's redirect to the bucket's
 * own region is followed, so `-o s3://…` works without one.
 */
import type { S3Client } from '@aws-sdk/client-s3';

export type S3Sdk = typeof import('@aws-sdk/client-s3');

export interface S3Handle {
  readonly client: S3Client;
  readonly sdk: S3Sdk;
  /** The store's endpoint when it is not AWS (shown in hints). */
  readonly endpoint: string | undefined;
}

/** Attempts per request (the SDK's standard retry: backoff with jitter on 5xx, SlowDown, resets). */
export const S3_ATTEMPTS = 5;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The endpoint the environment names, or undefined for AWS itself. */
export function endpointFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return nonEmpty(env['AWS_ENDPOINT_URL_S3']) ?? nonEmpty(env['AWS_ENDPOINT_URL']);
}

const clients = new Map<string, Promise<S3Handle>>();

async function create(endpoint: string | undefined): Promise<S3Handle> {
  const sdk = await import('@aws-sdk/client-s3');
  const base = {
    ...(endpoint === undefined ? {} : { endpoint, forcePathStyle: true }),
    followRegionRedirects: true,
    maxAttempts: S3_ATTEMPTS,
    // No answer (or no byte of one) for 2 minutes is a failed attempt, retried.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
  };
  let client = withoutVersionNotice(() => new sdk.S3Client(base));
  try {
    await client.config.region();
  } catch {
    client.destroy();
    client = withoutVersionNotice(() => new sdk.S3Client({ ...base, region: 'us-east-1' }));
  }
  return { client, sdk, endpoint };
}

/**
 * The SDK warns, as it makes a client on Node 20, that its releases after
 * January 2027 will need Node 22. That is for whoever upgrades the pinned
 * dependency (docs/CRON.md says so), not for a cron job's mailbox: that one
 * warning is dropped while the client is made, any other passes.
 */
function withoutVersionNotice<T>(make: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('NodeVersionSupportWarning')) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emit;
  }
}

/** The client for the store the environment names now (tests switch stores between runs). */
export function s3(): Promise<S3Handle> {
  const endpoint = endpointFromEnv();
  const key = endpoint ?? '';
  let handle = clients.get(key);
  if (handle === undefined) {
    handle = create(endpoint);
    clients.set(key, handle);
    handle.catch(() => clients.delete(key));
  }
  return handle;
}
