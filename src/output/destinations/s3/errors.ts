/**
 * A failed store request as one `error:` line naming the bucket and key, the
 * store's code and HTTP status, with a hint; exit codes as for the API (403
 * is 3, an unreachable store is 5, anything else 1). No credential reaches
 * the text: messages are built here from the code, never from what the SDK
 * printed, and any free text kept (a network error) has every credential
 * value in reach (environment, resolved chain) removed.
 */
import {
  ApiError,
  ConnectionError,
  NewsError,
  NotFoundError,
  PermissionError,
  ServerError,
  TimeoutError,
} from '../../../api/errors.js';
import { redactText } from '../../../api/redact.js';
import { S3_ATTEMPTS, endpointFromEnv, s3 } from './client.js';

export type StoreAction = 'write' | 'read' | 'publish' | 'remove' | 'list' | 'lock';

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  Code?: string;
  Region?: string;
  $metadata?: { httpStatusCode?: number; requestId?: string };
  $response?: { headers?: Record<string, string> };
}

const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ETIMEDOUT',
]);
const CREDENTIALS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
]);
const WRONG_REGION = new Set([
  'PermanentRedirect',
  'AuthorizationHeaderMalformed',
  'IllegalLocationConstraintException',
]);

/** Every credential value the process could have used, longest first. */
async function credentialValues(): Promise<string[]> {
  const values = new Set<string>();
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN']) {
    const v = process.env[name];
    if (v !== undefined && v.length >= 4) values.add(v);
  }
  try {
    const creds = await (await s3()).client.config.credentials();
    for (const v of [creds.accessKeyId, creds.secretAccessKey, creds.sessionToken]) {
      if (v !== undefined && v.length >= 4) values.add(v);
    }
  } catch {
    // no credentials resolved: nothing of them can be in the text
  }
  return [...values].sort((a, b) => b.length - a.length);
}

async function scrub(text: string): Promise<string> {
  let out = text;
  for (const value of await credentialValues()) out = redactText(out, value);
  return out.replace(/\s+/g, ' ').slice(0, 200);
}

function storeHint(): string {
  const endpoint = endpointFromEnv();
  return endpoint === undefined
    ? 'check the network; for a store other than AWS S3 set AWS_ENDPOINT_URL_S3'
    : `check the network and AWS_ENDPOINT_URL_S3 (now ${endpoint})`;
}

/** The error a failed request to `url` becomes. */
export async function storeError(error: unknown, action: StoreAction, url: string): Promise<Error> {
  if (error instanceof NewsError) return error;
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkError;
  const status = e.$metadata?.httpStatusCode;
  const code = e.Code ?? (e.name !== undefined && e.name !== 'Error' ? e.name : e.code);
  const requestId = e.$metadata?.requestId;
  const head = `cannot ${action} ${url}`;
  const extra = { code, requestId };

  if (
    status === undefined &&
    (code === 'CredentialsProviderError' || /credential/i.test(String(e.message)))
  ) {
    return new NewsError(`${head}: no usable AWS credentials (${code ?? 'credentials'})`, {
      hint: 'set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run with an instance role; an SSO session may need `aws sso login`',
    });
  }
  if (status === undefined) {
    const network = e.code ?? code ?? '';
    if (network === 'TimeoutError' || network === 'ETIMEDOUT' || e.name === 'TimeoutError') {
      return new TimeoutError(`${head}: the store did not answer in time`, { hint: storeHint() });
    }
    if (
      NETWORK.has(network) ||
      /ECONN|ENOTFOUND|EAI_AGAIN|socket hang up/.test(String(e.message))
    ) {
      return new ConnectionError(
        `${head}: cannot reach the store (${await scrub(network || String(e.message))})`,
        { hint: storeHint() },
      );
    }
    return new NewsError(`${head}: ${await scrub(String(e.message ?? error))}`, {
      hint: 'run again with --verbose for details',
    });
  }
  const bucket = url.slice(5).split('/')[0];
  if (code === 'NoSuchBucket') {
    return new NotFoundError(status, `${head}: the bucket ${bucket} does not exist`, {
      ...extra,
      hint:
        endpointFromEnv() === undefined
          ? 'create it, or check the name (and AWS_ENDPOINT_URL_S3 if the bucket is not on AWS)'
          : `create it on ${endpointFromEnv()}, or check the name`,
    });
  }
  if (code !== undefined && WRONG_REGION.has(code)) {
    const region = e.Region ?? e.$response?.headers?.['x-amz-bucket-region'];
    return new ApiError(status, `${head}: the bucket ${bucket} is in another region`, {
      ...extra,
      hint:
        region === undefined
          ? "set AWS_REGION to the bucket's region"
          : `set AWS_REGION=${await scrub(region)}`,
    });
  }
  if (code !== undefined && CREDENTIALS.has(code)) {
    return new PermissionError(status, `${head}: the store refused the credentials`, {
      ...extra,
      hint: 'check AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; an SSO session may need `aws sso login`',
    });
  }
  if (status === 403 || status === 401) {
    return new PermissionError(status, `${head}: access denied`, {
      ...extra,
      hint: `the identity in use needs s3:GetObject, s3:PutObject, s3:DeleteObject and s3:ListBucket on ${bucket}`,
    });
  }
  if (status >= 500 || code === 'SlowDown') {
    return new ServerError(status, `${head}: the store failed ${S3_ATTEMPTS} attempts`, {
      ...extra,
      hint: 'nothing partial is visible; run the same command again later',
    });
  }
  return new ApiError(status, `${head}: the store refused the request`, extra);
}

/** True for a 404 of the object (not of the bucket): "there is none yet". */
export function isMissingObject(error: unknown): boolean {
  const e = error as SdkError;
  const code = e?.Code ?? e?.name;
  return (
    code === 'NoSuchKey' ||
    code === 'NotFound' ||
    (e?.$metadata?.httpStatusCode === 404 && code !== 'NoSuchBucket')
  );
}

/** A conditional write lost: the object exists (If-None-Match) or changed (If-Match). */
export function isPreconditionFailed(error: unknown): boolean {
  const e = error as SdkError;
  const status = e?.$metadata?.httpStatusCode;
  return (
    status === 412 ||
    e?.name === 'PreconditionFailed' ||
    (status === 409 && e?.name === 'ConditionalRequestConflict')
  );
}
